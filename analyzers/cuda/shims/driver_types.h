// KernelGate shim: driver_types.h (part of the CUDA runtime shim).
#pragma once
#include "cuda_runtime.h"
