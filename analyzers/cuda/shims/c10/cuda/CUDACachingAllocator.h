// KernelGate shim: c10/cuda/CUDACachingAllocator.h (see c10/cuda/CUDAStream.h).
#pragma once
#include "../../c10/cuda/CUDAStream.h"
