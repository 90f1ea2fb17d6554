// KernelGate shim: cutlass/tensor_ref.h (see cutlass/cutlass.h).
#pragma once
#include "../cutlass/cutlass.h"
