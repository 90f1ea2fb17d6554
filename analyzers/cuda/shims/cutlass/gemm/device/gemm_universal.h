// KernelGate shim: cutlass/gemm/device/gemm_universal.h (see cutlass/cutlass.h).
#pragma once
#include "../../../cutlass/cutlass.h"
