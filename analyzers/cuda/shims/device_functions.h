// KernelGate shim: device_functions.h (part of the CUDA runtime shim).
#pragma once
#include "cuda_runtime.h"
