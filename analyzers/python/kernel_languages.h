// The kernel languages a Python submission may write its own kernels in, by the resolved names that
// mark them (issue 19): decorators that make a function a kernel, compilers and kernel factories
// that return a compiled kernel handle, and launch APIs. One table, read by the Python extractor.
#pragma once

#include <string_view>

namespace kgate::python {

// A decorator that makes the function a kernel of a language other than Triton (T.prim_func,
// cute.kernel, numba.cuda.jit, cuda.tile.kernel, ...). Returns the language's name, or empty.
std::string_view dsl_kernel_decorator(std::string_view resolved);

// A decorator whose function returns a compiled kernel handle when called (tilelang.jit's factory).
bool kernel_factory_decorator(std::string_view resolved);

// A call that compiles source or a kernel function into a handle that is then called to launch it
// (cute.compile, tilelang.compile, cupy.RawKernel, numba.cuda.jit(fn), torch.cuda.jiterator...).
bool kernel_compiler(std::string_view resolved);

// A compiler whose first argument (or `code=`) is CUDA C++ source text: cupy.RawKernel, RawModule,
// torch.cuda.jiterator._create_jit_fn.
bool kernel_source_compiler(std::string_view resolved);

// A call that launches a kernel by itself (cuLaunchKernel, hipModuleLaunchKernel, cuda.tile.launch).
bool kernel_launch_api(std::string_view resolved);

// Methods of a compiled module that hand out one kernel of it (CuPy RawModule.get_function).
bool kernel_getter_method(std::string_view method);

}  // namespace kgate::python
