// KernelGate shim: cutlass/layout/matrix.h (see cutlass/cutlass.h).
#pragma once
#include "../../cutlass/cutlass.h"
