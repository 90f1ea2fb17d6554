// KernelGate shim: cutlass/gemm/device/gemm.h (see cutlass/cutlass.h).
#pragma once
#include "../../../cutlass/cutlass.h"
