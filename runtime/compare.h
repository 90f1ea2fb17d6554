// Output comparison: the tolerance contract of docs/task-manifest.md (elementwise and norm terms, NaN never
// a wildcard) and the quantization contract (cosine, relative L1, RMSE), after exact metadata checks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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

// A call's output: the tensors of what it returned, in order (a tuple, list or dict of them flattened
// the way the worker and kgate_judge.flatten_output do; one tensor is a list of one).
using Outputs = std::vector<at::Tensor>;

// Each tensor of `actual` against its place in `expected`: the first that fails (its message prefixed
// with "output[i]: " where there are several), else the largest errors over all. scale_huge: each
// tolerance scaled_to_output() by its own expected tensor (a case drawn at huge magnitude).
CompareResult compare_all(const Outputs& expected, const Outputs& actual, const Tolerance&, bool scale_huge, Contract,
                          const QuantizationContract&);

// Whether two outputs hold the same number of tensors, each of the same shape, dtype and bits.
bool same_outputs(const Outputs& a, const Outputs& b);

// Whether every tensor of `outputs` equals (shape, dtype and bits) one of `inputs`: an expected output that
// is a copy of an input needs no kernel to compute (a reverse or a sort of one element, in place).
bool outputs_copy_inputs(const Outputs& outputs, const std::vector<at::Tensor>& inputs);

// "output" for a single tensor, "output[i]" where there are several: the name a message gives it.
std::string output_name(const Outputs& outputs, std::size_t i);

// The tolerance for a case drawn at huge magnitude: atol scaled by the output's RMS (finite values; at
// least 1). A sum of terms of 1e4 that cancels to a small value carries rounding of the terms' size in
// any summation order, so an absolute atol would fail honest kernels there; what the huge case exists to
// catch (a reduced-precision intermediate overflowing or losing the magnitude) errs by the output's own
// size, far beyond atol * RMS, and the norm term is unchanged.
Tolerance scaled_to_output(Tolerance, const at::Tensor& expected);

// "[2, 3, 4]": sizes or strides, for messages.
std::string shape_string(at::IntArrayRef sizes);

}  // namespace kgate::runtime
