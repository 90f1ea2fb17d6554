// KernelGate shim: cub/warp/warp_reduce.cuh (see cub/cub.cuh).
#pragma once
#include "../cub.cuh"
