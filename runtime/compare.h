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

// The tolerance for a case drawn at huge magnitude: atol scaled by the output's RMS (finite values; at
// least 1). A sum of terms of 1e4 that cancels to a small value carries rounding of the terms' size in
// any summation order, so an absolute atol would fail honest kernels there; what the huge case exists to
// catch (a reduced-precision intermediate overflowing or losing the magnitude) errs by the output's own
// size, far beyond atol * RMS, and the norm term is unchanged.
Tolerance scaled_to_output(Tolerance, const at::Tensor& expected);

// "[2, 3, 4]": sizes or strides, for messages.
std::string shape_string(at::IntArrayRef sizes);

}  // namespace kgate::runtime
