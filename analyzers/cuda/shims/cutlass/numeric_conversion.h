// KernelGate shim: cutlass/numeric_conversion.h (see cutlass/cutlass.h).
#pragma once
#include "../cutlass/cutlass.h"
