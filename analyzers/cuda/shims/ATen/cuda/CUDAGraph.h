// KernelGate shim: ATen/cuda/CUDAGraph.h (see c10/cuda/CUDAStream.h).
#pragma once
#include "../../c10/cuda/CUDAStream.h"
