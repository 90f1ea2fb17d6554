// KernelGate shim: ATen/TensorAccessor.h (see ATen/ATen.h).
#pragma once
#include "../ATen/ATen.h"
