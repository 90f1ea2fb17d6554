// KernelGate shim: sm_80_intrinsics.h (part of the CUDA runtime shim).
#pragma once
#include "cuda_runtime.h"
