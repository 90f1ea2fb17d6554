// Sibling module of sibling_module_library_gemm.py: its one exported function is cuBLAS through ATen.
#include <torch/extension.h>

torch::Tensor tiled_gemm(torch::Tensor a, torch::Tensor b) {
  // ruleid: cpp-library-call
  return at::matmul(a, b);
}

PYBIND11_MODULE(tiled_gemm_prebuilt, m) { m.def("tiled_gemm", &tiled_gemm, "a @ b"); }
