// KernelGate shim: cub/block/block_scan.cuh (see cub/cub.cuh).
#pragma once
#include "../cub.cuh"
