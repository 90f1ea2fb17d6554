// KernelGate shim: cub/device/device_radix_sort.cuh (see cub/cub.cuh).
#pragma once
#include "../cub.cuh"
