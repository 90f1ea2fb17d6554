// KernelGate shim: device_launch_parameters.h (part of the CUDA runtime shim).
#pragma once
#include "cuda_runtime.h"
