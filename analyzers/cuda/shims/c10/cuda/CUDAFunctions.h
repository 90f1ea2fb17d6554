// KernelGate shim: c10/cuda/CUDAFunctions.h (see c10/cuda/CUDAStream.h).
#pragma once
#include "../../c10/cuda/CUDAStream.h"
