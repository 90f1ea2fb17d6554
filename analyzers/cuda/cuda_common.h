// Vocabulary shared by both CUDA engines: the tables that classify callee names (launch APIs, precision conversions,
// named dtype constants).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/core/facts.h"
#include "analyzers/core/source.h"
#include "analyzers/core/tensor_methods.h"

namespace kgate::cuda {

// The launch API of a callee name ("cudaLaunchKernel" ...), with the argument index of the kernel
// and of the first grid dimension; nullopt for other names.
struct LaunchApi {
  int kernel_arg = 0;
  int grid_arg = 1;  // cuLaunchKernel: three arguments gx, gy, gz
  int grid_args = 1;
};
std::optional<LaunchApi> launch_api(std::string_view resolved);

// A precision conversion by a named function: "__float2half" -> "torch.float16".
std::optional<std::string> conversion_function_dtype(std::string_view resolved);
// A dtype named by a type or constant: "__half", "half", "at::kHalf", "c10::ScalarType::Half",
// "torch::kBFloat16" -> "torch.float16" / "torch.bfloat16" / ...; nullopt when not a low precision.
std::optional<std::string> low_precision_dtype(std::string_view name);
// Tensor methods that convert precision by name: "half" -> torch.float16, "bfloat16" -> ...
std::optional<std::string> conversion_method_dtype(std::string_view method);

// The narrower dtypes that a tensor-core operation names in its types (docs/dtype-contract.md): a WMMA
// fragment (`fragment<accumulator, 16, 16, 16, half>`: use "accumulator", element "half") and a CuTe
// MMA atom (`SM80_16x8x16_F16F16F16F16_TN`: D, A, B and C types after the shape). `via` is
// "wmma-accumulator", "wmma-operand", "mma-atom-accumulator" or "mma-atom-operand"; fp32 and wider,
// and integer types (quantisation's), name nothing.
struct TensorCorePrecision {
  std::string dtype;
  std::string via;
};
std::optional<TensorCorePrecision> wmma_fragment_precision(std::string_view use, std::string_view element);
std::vector<TensorCorePrecision> mma_atom_precision(std::string_view name);

// Runtime and driver APIs that write the memory their first argument points to (cudaMemset,
// cudaMemcpy and their async, 2D and driver forms, HIP's twins).
bool writes_first_argument(std::string_view resolved);

// Tensor accessors that hand out the tensor's own storage (data_ptr, mutable_data_ptr, data).
bool is_storage_accessor(std::string_view method);

// Last component of a qualified C++ name ("at::Tensor::to" -> "to").
std::string_view last_component(std::string_view qualified);

// Class names whose construction is recorded as a call "<class>::<last>" (std::thread ...).
bool is_recorded_construction(std::string_view qualified_class);

// Whether a qualified name is an ATen/torch tensor type (the kinds of static state that cache).
bool is_tensor_type_name(std::string_view type_text);

// ATen arithmetic (operators, add/sub/mul/div and their in-place forms) and elementwise math (sqrt, exp,
// pow, ...): on operands that are all one-element tensors or numbers this is glue (a kernel's sum
// divided by N), on full tensors it is PyTorch compute.
bool tensor_arithmetic(std::string_view resolved);

// A tensor variable's declared type ("const torch::Tensor&", "at::Tensor"): not containers or
// optionals of tensors, nor TensorOptions.
bool is_tensor_variable_type(std::string_view type_text);

// Tensor methods that read only a tensor's metadata (x.size(0), x.options(), x.is_cuda()), and the
// makers of a tensor shaped like their argument (at::empty_like(x)): a parameter used only through
// them is not read (the "param-unread:<i>" decorator of both engines).
bool tensor_metadata_only_method(std::string_view method);
bool like_maker(std::string_view resolved);
// A tensor parameter that a function only hands whole to another, by name: "param-handed:<i>:<j>:<callee>"
// (its parameter i is argument j of a call of callee; cuda::link decides whether it is read).
std::string param_handed_decorator(size_t param, size_t position, std::string_view callee);
bool parse_param_handed(std::string_view decorator, size_t& param, size_t& position, std::string& callee);

// What an ATen call returns when it is not a tensor: "sizes" -> "c10::IntArrayRef", "options" ->
// "c10::TensorOptions", metadata (numel, dtype, data_ptr, ...) -> "" (a number, pointer or handle);
// nullopt when the call returns a tensor.
std::optional<std::string> aten_non_tensor_result(std::string_view resolved);

// An ATen operator looked up by its schema name (`c10::Dispatcher::singleton().findSchemaOrThrow("aten::bmm",
// "")`): "at::bmm"; "" for other calls. `resolved` is the lookup's callee ("?::findSchemaOrThrow" when
// the engine could not type the dispatcher); `strings` its string arguments.
std::string dispatcher_operator(std::string_view resolved, const std::vector<std::string>& strings);

// The function an asm label binds a declaration to: "_ZN2at6matmulERKNS_6TensorES2_" -> "at::matmul";
// a symbol that does not demangle is returned as it is.
std::string asm_label_function(const std::string& symbol);

// The macros the build defines on the command line of an embedded module's translation unit
// (extra_cuda_cflags for CUDA sources, extra_cflags for C++ sources), as "NAME=VALUE" or "NAME".
std::vector<std::string> command_line_defines(const FactSet& facts, const Module& module);

// One such define as a #define line ("NAME=VALUE" -> "#define NAME VALUE\n"; "NAME" -> "#define NAME 1\n").
std::string define_line(const std::string& define);

}  // namespace kgate::cuda
