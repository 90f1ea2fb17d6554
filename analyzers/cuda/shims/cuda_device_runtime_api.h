// KernelGate shim: cuda_device_runtime_api.h (part of the CUDA runtime shim).
#pragma once
#include "cuda_runtime.h"
