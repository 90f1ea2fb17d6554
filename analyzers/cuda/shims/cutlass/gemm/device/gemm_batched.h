// KernelGate shim: cutlass/gemm/device/gemm_batched.h (see cutlass/cutlass.h).
#pragma once
#include "../../../cutlass/cutlass.h"
