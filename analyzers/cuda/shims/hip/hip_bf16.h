// KernelGate shim: hip/hip_bf16.h.
#pragma once
#include "amd_detail/amd_hip_bf16.h"
