"""ThunderKittens submission in a kernelbench.com-style workspace (class Model; bf16 task, reference.py beside it): each warp loads a 64x64 tile of x and
of bias from global layouts into registers, computes x * scale + bias on the register tiles, and
stores the tile to the output layout. Built with load_inline against the ThunderKittens headers."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_TK_SOURCE = r"""
#include "kittens.cuh"
#include <torch/extension.h>

using namespace kittens;

constexpr int TILE = 64;
using tile_gl = gl<bf16, 1, 1, -1, -1, st_bf<TILE, TILE>>;

struct scale_bias_globals {
    tile_gl x;
    tile_gl bias;
    tile_gl out;
    float scale;
};

__global__ void scale_bias_tk(const __grid_constant__ scale_bias_globals g) {
    const int row = blockIdx.y;
    const int col = blockIdx.x;
    rt_bf<TILE, TILE> x_reg;
    rt_bf<TILE, TILE> b_reg;
    warp::load(x_reg, g.x, {0, 0, row, col});
    warp::load(b_reg, g.bias, {0, 0, row, col});
    warp::mul(x_reg, x_reg, __float2bfloat16(g.scale));
    warp::add(x_reg, x_reg, b_reg);
    warp::store(g.out, x_reg, {0, 0, row, col});
}

torch::Tensor scale_bias(torch::Tensor x, torch::Tensor bias, double scale) {
    auto out = torch::empty_like(x);
    const int rows = static_cast<int>(x.size(0));
    const int cols = static_cast<int>(x.size(1));
    tile_gl gx{reinterpret_cast<bf16*>(x.data_ptr<at::BFloat16>()), nullptr, nullptr, rows, cols};
    tile_gl gb{reinterpret_cast<bf16*>(bias.data_ptr<at::BFloat16>()), nullptr, nullptr, rows, cols};
    tile_gl go{reinterpret_cast<bf16*>(out.data_ptr<at::BFloat16>()), nullptr, nullptr, rows, cols};
    scale_bias_globals g{gx, gb, go, static_cast<float>(scale)};
    dim3 grid(cols / TILE, rows / TILE);
    scale_bias_tk<<<grid, 32>>>(g);
    return out;
}
"""

_ext = load_inline(
    name="scale_bias_tk",
    cpp_sources="torch::Tensor scale_bias(torch::Tensor x, torch::Tensor bias, double scale);",
    cuda_sources=_TK_SOURCE,
    functions=["scale_bias"],
    extra_cuda_cflags=["-std=c++20", "--expt-relaxed-constexpr", "-DKITTENS_HOPPER"],
)


class Model(nn.Module):
    def __init__(self, scale: float = 0.5):
        super().__init__()
        self.scale = scale

    def forward(self, x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        return _ext.scale_bias(x.contiguous(), bias.contiguous(), self.scale)
