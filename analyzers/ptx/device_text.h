// The device half of a CUDA C++ source, as NVRTC can compile it: the PTX witness's input.
//
// NVRTC compiles device code only, and a submission's CUDA source mixes kernels with host code that
// needs torch's headers (the launcher, PYBIND11_MODULE). device_only_text() keeps the source's bytes
// where they are (so NVRTC's line numbers are the source's) and blanks, with spaces, what NVRTC
// cannot take: host function definitions and declarations, includes other than CUDA's device headers,
// and declarations that name torch, ATen, c10, pybind11 or the C++ standard library. Kernels,
// __device__ functions, macros, types and constants stay. A template kernel is compiled where a blanked
// host function launches it with explicit template arguments (`k<float, 128><<<...>>>`; `scalar_t`,
// AT_DISPATCH's name, stands for float): those arguments become NVRTC name expressions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kgate::ptx {

struct DeviceText {
  std::string text;                           // the source with host code blanked (same length)
  std::vector<std::string> name_expressions;  // "k<float, 128>": template kernels to instantiate
  int blanked_functions = 0;                  // host function definitions removed
};

DeviceText device_only_text(std::string_view cuda_source);

// Whether `#include <path>` is one of CUDA's device headers, which NVRTC finds on the toolkit's include
// path (cuda_fp16.h, mma.h, cooperative_groups.h, cuda/...); torch's, pybind11's and the standard
// library's are not.
bool is_device_header(std::string_view path);

}  // namespace kgate::ptx
