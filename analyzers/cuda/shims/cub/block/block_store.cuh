// KernelGate shim: cub/block/block_store.cuh (see cub/cub.cuh).
#pragma once
#include "../cub.cuh"
