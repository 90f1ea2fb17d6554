// KernelGate shim: ATen/native/cuda/Loops.cuh (see c10/cuda/CUDAStream.h).
#pragma once
#include "../../../c10/cuda/CUDAStream.h"
