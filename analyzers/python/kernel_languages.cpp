// The kernel-language table: what marks a kernel, a compiled kernel handle and a launch.
#include "analyzers/python/kernel_languages.h"

#include <algorithm>
#include <array>
#include <utility>

namespace kgate::python {

namespace {

// Resolved decorator names (after aliases: `import tilelang.language as T` makes T.prim_func
// tilelang.language.prim_func) and the language each one marks.
constexpr std::array<std::pair<std::string_view, std::string_view>, 10> kKernelDecorators = {{
    {"tilelang.language.prim_func", "tilelang"},
    {"tvm.script.tir.prim_func", "tilelang"},
    {"tvm.script.parser.tir.prim_func", "tilelang"},
    {"cutlass.cute.kernel", "cute-dsl"},
    {"cuda.tile.kernel", "cutile"},
    {"numba.cuda.jit", "numba"},
    {"numba.cuda.jit.jit", "numba"},
    {"helion.kernel", "helion"},
    {"warp.kernel", "warp"},
    {"taichi.kernel", "taichi"},
}};

constexpr std::array<std::string_view, 2> kFactoryDecorators = {"tilelang.jit", "tilelang.autotune"};

constexpr std::array<std::string_view, 16> kCompilers = {
    "tilelang.compile",
    "tilelang.jit",
    "cutlass.cute.compile",
    "cupy.RawKernel",
    "cupy.RawModule",
    "cupy.ElementwiseKernel",
    "cupy.ReductionKernel",
    "cupy._core.raw.RawKernel",
    "numba.cuda.jit",
    "torch.cuda.jiterator._create_jit_fn",
    "torch.cuda.jiterator._create_multi_output_jit_fn",
    "pycuda.compiler.SourceModule",
    "cuda.core.experimental.Program",
    "cuda.core.Program",
    "triton.compile",
    "hip.hiprtc.hiprtcCompileProgram",
};

constexpr std::array<std::string_view, 12> kLaunchApis = {
    "cuda.cuda.cuLaunchKernel",
    "cuda.cuda.cuLaunchKernelEx",
    "cuda.cuLaunchKernel",
    "cuda.bindings.driver.cuLaunchKernel",
    "cuda.bindings.driver.cuLaunchKernelEx",
    "cuda.bindings.runtime.cudaLaunchKernel",
    "cuda.core.experimental.launch",
    "cuda.core.launch",
    "cuda.tile.launch",
    "hip.hip.hipModuleLaunchKernel",
    "hip.hip.hipLaunchKernel",
    "pycuda.driver.Function.__call__",
};

template <size_t N>
bool contains(const std::array<std::string_view, N>& table, std::string_view name) {
  return std::find(table.begin(), table.end(), name) != table.end();
}

}  // namespace

std::string_view dsl_kernel_decorator(std::string_view resolved) {
  for (const auto& [name, language] : kKernelDecorators)
    if (name == resolved) return language;
  return {};
}

bool kernel_factory_decorator(std::string_view resolved) { return contains(kFactoryDecorators, resolved); }
bool kernel_compiler(std::string_view resolved) { return contains(kCompilers, resolved); }
bool kernel_launch_api(std::string_view resolved) { return contains(kLaunchApis, resolved); }

bool kernel_source_compiler(std::string_view resolved) {
  return resolved == "cupy.RawKernel" || resolved == "cupy.RawModule" || resolved == "cupy._core.raw.RawKernel" ||
         resolved == "torch.cuda.jiterator._create_jit_fn" ||
         resolved == "torch.cuda.jiterator._create_multi_output_jit_fn";
}

bool kernel_getter_method(std::string_view method) {
  return method == "get_function" || method == "get_kernel" || method == "get_global";
}

}  // namespace kgate::python
