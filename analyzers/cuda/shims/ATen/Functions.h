// KernelGate shim: ATen/Functions.h (see ATen/ATen.h).
#pragma once
#include "../ATen/ATen.h"
