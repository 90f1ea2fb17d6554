// KernelGate shim: ATen/cuda/Atomic.cuh (see c10/cuda/CUDAStream.h).
#pragma once
#include "../../c10/cuda/CUDAStream.h"
