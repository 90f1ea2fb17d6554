// KernelGate shim: math_constants.h (part of the CUDA runtime shim).
#pragma once
#include "cuda_runtime.h"
