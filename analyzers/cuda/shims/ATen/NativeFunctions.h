// KernelGate shim: ATen/NativeFunctions.h (see ATen/ATen.h).
#pragma once
#include "../ATen/ATen.h"
