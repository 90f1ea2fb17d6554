// KernelGate shim: cutlass/util/host_tensor.h (see cutlass/cutlass.h).
#pragma once
#include "../../cutlass/cutlass.h"
