// Input contracts of tasks without a manifest (a bare KernelBench file): what every get_inputs() draw
// keeps, so that the judge's distributions keep it too. A lower-triangular input stays lower
// triangular, a probability row stays a probability row, ±1 targets and integer labels stay what they
// were. The judge draws get_inputs() a few times under secret seeds and reads the contract off them.
#pragma once

#include <string>
#include <vector>

#include <ATen/core/Tensor.h>

#include "runtime/task.h"

namespace kgate::runtime {

// How many get_inputs() draws the judge reads a contract from.
inline constexpr int kContractDraws = 3;

// One InputSpec per get_inputs() entry (named `get_inputs()[i]`), from `draws` (each one call's
// tensors, the same count and shapes every time). A property is part of the contract only when every
// draw has it. Floating tensors only; other entries get an empty spec (they are kept as they are).
//  - values that are not all finite, or all integral (labels, ±1 targets, masks stored as floats): keep;
//  - rows over the last dimension that are non-negative and sum to 1: probability;
//  - values in [0, 1]: unit_interval; all positive: positive; all non-negative: nonnegative;
//  - over the last two dimensions: zeros above or below the diagonal (lower/upper triangular, both:
//    diagonal), else equality with the transpose (symmetric); else rows over the last dimension of at
//    least 8 entries that never decrease (sorted: the inputs of a merge or a search).
std::vector<InputSpec> infer_input_specs(const std::vector<std::vector<at::Tensor>>& draws);

// "lower_triangular, unit_interval (values in [0, 0.9999] over 3 draws)": a spec for people.
std::string describe(const InputSpec&);

}  // namespace kgate::runtime
