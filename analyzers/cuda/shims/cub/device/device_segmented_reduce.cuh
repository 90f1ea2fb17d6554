// KernelGate shim: cub/device/device_segmented_reduce.cuh (see cub/cub.cuh).
#pragma once
#include "../cub.cuh"
