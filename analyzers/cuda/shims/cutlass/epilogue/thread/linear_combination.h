// KernelGate shim: cutlass/epilogue/thread/linear_combination.h (see cutlass/cutlass.h).
#pragma once
#include "../../../cutlass/cutlass.h"
