// KernelGate shim: ATen/Tensor.h (see ATen/ATen.h).
#pragma once
#include "../ATen/ATen.h"
