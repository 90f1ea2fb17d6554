// KernelGate shim: cub/block/block_reduce.cuh (see cub/cub.cuh).
#pragma once
#include "../cub.cuh"
