// KernelGate shim: cub/block/block_load.cuh (see cub/cub.cuh).
#pragma once
#include "../cub.cuh"
