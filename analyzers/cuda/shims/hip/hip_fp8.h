// KernelGate shim: hip/hip_fp8.h.
#pragma once
#include "amd_detail/amd_hip_fp8.h"
