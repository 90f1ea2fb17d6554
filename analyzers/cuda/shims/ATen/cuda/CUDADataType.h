// KernelGate shim: ATen/cuda/CUDADataType.h (see c10/cuda/CUDAStream.h).
#pragma once
#include "../../c10/cuda/CUDAStream.h"
