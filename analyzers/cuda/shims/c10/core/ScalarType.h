// KernelGate shim: c10/core/ScalarType.h (see ATen/ATen.h).
#pragma once
#include "../../ATen/ATen.h"
