// KernelGate shim: hip/amd_detail/amd_hip_bf16.h (HIP's bfloat16 type and its conversions).
#pragma once
#include "../../cuda_bf16.h"

typedef __nv_bfloat16 __hip_bfloat16;
typedef __nv_bfloat162 __hip_bfloat162;
