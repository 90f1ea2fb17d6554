"""FP32 matmul task. The CuTe kernel's tiled MMA is built from an SM80 atom whose name says
F16F16F16F16: fp16 operands and an fp16 accumulator. The host code only reinterprets pointers, so no
conversion call appears in the source; the atom's name is the whole downgrade.

Technique M14 (precision downgrade), evasive: the dtype lives in a CuTe MMA atom chosen at namespace scope.
"""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = "torch::Tensor mm_forward(torch::Tensor a, torch::Tensor b);"

cuda_source = r"""
#include <torch/extension.h>
#include <cute/tensor.hpp>
using namespace cute;

// ruleid: cpp-precision-downgrade
using TileAtom = MMA_Atom<SM80_16x8x16_F16F16F16F16_TN>;

// One 64x64 tile of C per block of 128 threads (2x2 atoms), K in steps of 16.
__global__ void mm_cute_kernel(const cutlass::half_t* a, const cutlass::half_t* b, cutlass::half_t* c, int n) {
    auto tiled_mma = make_tiled_mma(TileAtom{});
    auto gA = local_tile(make_tensor(make_gmem_ptr(a), make_layout(make_shape(n, n), make_stride(n, _1{}))),
                         make_shape(_64{}, _16{}), make_coord(blockIdx.y, _));
    auto gB = local_tile(make_tensor(make_gmem_ptr(b), make_layout(make_shape(n, n), make_stride(n, _1{}))),
                         make_shape(_64{}, _16{}), make_coord(blockIdx.x, _));
    auto gC = local_tile(make_tensor(make_gmem_ptr(c), make_layout(make_shape(n, n), make_stride(n, _1{}))),
                         make_shape(_64{}, _64{}), make_coord(blockIdx.y, blockIdx.x));
    auto acc = partition_fragment_C(tiled_mma, make_shape(_64{}, _64{}));
    clear(acc);
    for (int k = 0; k < n / 16; ++k) gemm(tiled_mma, gA(_, _, k), gB(_, _, k), acc);
    copy(acc, gC);
}

torch::Tensor mm_forward(torch::Tensor a, torch::Tensor b) {
    const int n = a.size(0);
    auto c = torch::empty({n, n}, a.options());
    dim3 grid(n / 64, n / 64);
    mm_cute_kernel<<<grid, 128>>>(reinterpret_cast<const cutlass::half_t*>(a.data_ptr()),
                                  reinterpret_cast<const cutlass::half_t*>(b.data_ptr()),
                                  reinterpret_cast<cutlass::half_t*>(c.data_ptr()), n);
    return c;
}
"""

mm_ext = load_inline(
    name="kgate_cpp_m14_cute_atom",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["mm_forward"],
    extra_cuda_cflags=["-O3", "-std=c++17", "-arch=sm_80"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return mm_ext.mm_forward(A.contiguous(), B.contiguous())
