// KernelGate shim: cub/device/device_scan.cuh (see cub/cub.cuh).
#pragma once
#include "../cub.cuh"
