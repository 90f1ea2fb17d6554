// KernelGate shim: ATen/cuda/CUDAGeneratorImpl.h (see c10/cuda/CUDAStream.h).
#pragma once
#include "../../c10/cuda/CUDAStream.h"
