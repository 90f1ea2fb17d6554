// KernelGate shim: ATen/cuda/detail/CUDAHooks.h (see c10/cuda/CUDAStream.h).
#pragma once
#include "../../../c10/cuda/CUDAStream.h"
