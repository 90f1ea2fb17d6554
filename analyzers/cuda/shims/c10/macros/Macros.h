// KernelGate shim: c10/macros/Macros.h (see ATen/ATen.h).
#pragma once
#include "../../ATen/ATen.h"
