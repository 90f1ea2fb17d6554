// KernelGate shim: ATen/cuda/CUDAUtils.h (see c10/cuda/CUDAStream.h).
#pragma once
#include "../../c10/cuda/CUDAStream.h"
