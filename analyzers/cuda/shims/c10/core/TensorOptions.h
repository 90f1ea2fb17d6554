// KernelGate shim: c10/core/TensorOptions.h (see ATen/ATen.h).
#pragma once
#include "../../ATen/ATen.h"
