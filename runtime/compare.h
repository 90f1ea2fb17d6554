// Output comparison: the tolerance contract of docs/task-manifest.md (elementwise and norm terms, NaN never
// a wildcard) and the quantization contract (cosine, relative L1, RMSE), after exact metadata checks.
#pragma once

#include <cstdint>
#include <string>

#include <ATen/core/Tensor.h>

#include "runtime/task.h"

namespace kgate::runtime {

struct CompareResult {
  bool ok;
  std::string reason_id;  // empty when ok; else shape-mismatch, dtype-mismatch, device-mismatch,
                          // not-contiguous, nan-mismatch, mismatch, norm-mismatch
  std::string message;
  double max_abs_err;
  double max_rel_err;
  double norm_err_ratio;  // ||a - e||_2 / (norm_rtol * ||e||_2 + atol * sqrt(numel)); <= 1 passes
  std::int64_t mismatches;
};

// Checks, in order: shape, dtype, device, contiguity, NaN placement, then the values under the contract.
CompareResult compare_outputs(const at::Tensor& expected, const at::Tensor& actual, const Tolerance&, Contract,
                              const QuantizationContract&);

}  // namespace kgate::runtime
