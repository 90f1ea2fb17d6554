// KernelGate shim: cutlass/array.h (see cutlass/cutlass.h).
#pragma once
#include "../cutlass/cutlass.h"
