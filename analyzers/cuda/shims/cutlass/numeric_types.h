// KernelGate shim: cutlass/numeric_types.h (see cutlass/cutlass.h).
#pragma once
#include "../cutlass/cutlass.h"
