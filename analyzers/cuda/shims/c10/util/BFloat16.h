// KernelGate shim: c10/util/BFloat16.h (see ATen/ATen.h).
#pragma once
#include "../../ATen/ATen.h"
