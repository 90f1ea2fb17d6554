// Runtime defences against outputs that only look right: non-plain tensors (T4), aliasing an input (M6),
// mutated inputs (M3), nondeterminism (M2), reading stale or uninitialised memory (M1/M2 via poison).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include "runtime/task.h"
#include "runtime/verdict.h"

namespace kgate::runtime {

struct StorageRange {
  std::uintptr_t begin;
  std::uintptr_t end;  // one past the last byte
};

struct OutputFacts {
  bool exact_tensor_type;                       // type(out) is torch.Tensor, not a subclass
  std::vector<std::string> overridden_methods;  // methods defined on the instance or a subclass
  bool has_torch_function_override;             // __torch_function__ / __torch_dispatch__ not the default
  bool is_contiguous;
  bool owns_storage_exactly;  // storage offset 0 and storage nbytes == numel * itemsize
  StorageRange storage;
  // Non-overlapping and dense in some order of its dimensions (contiguous, or column-major as
  // torch.linalg returns its factors): every element written, no element twice.
  bool is_dense = false;
};  // gathered by the worker

// A plain tensor of its own. Its layout must be contiguous where the reference's output is; where the
// reference returns another dense layout (torch.linalg's column-major factors), any dense layout is plain.
std::optional<Reason> check_output_plain(const OutputFacts&, bool reference_contiguous = true);
std::optional<Reason> check_aliasing(const StorageRange& output, const std::vector<StorageRange>& inputs);
std::optional<Reason> check_inputs_unchanged(const std::vector<at::Tensor>& before,
                                             const std::vector<at::Tensor>& after);
std::optional<Reason> check_deterministic(const at::Tensor& first, const at::Tensor& second);
// The same check with a tolerance, for kernels whose reductions legitimately vary in the last bits
// (atomics): only a difference beyond the task's tolerance counts as nondeterministic.
std::optional<Reason> check_deterministic(const at::Tensor& first, const at::Tensor& second, const Tolerance&);
void poison_free_memory(c10::Device device, std::size_t bytes);  // NaN patterns into the allocator's free memory

// The storage a tensor's elements occupy (data_ptr .. data_ptr + span of its strides); empty for numel 0.
StorageRange storage_range_of(const at::Tensor&);

// The poison bit pattern of a floating dtype: a quiet NaN with a payload no arithmetic produces.
// Reports poison-read when an output holds it in any element (the candidate returned memory it never wrote).
bool is_poison_dtype(at::ScalarType);
std::optional<Reason> check_poison_read(const at::Tensor& output);
// An integer output (int16/32/64) whose every element that differs from the expected one is that
// value plus the poison word, or plus the type's minimum that the output-argument adapters fill an
// unset output with, wrapped: the candidate accumulated (atomicAdd, +=) into an output it never cleared. Reports
// uncleared-output; nullopt otherwise.
std::optional<Reason> check_added_onto_poison(const at::Tensor& expected, const at::Tensor& actual);

}  // namespace kgate::runtime
