// KernelGate shim: ATen/Context.h (see ATen/ATen.h).
#pragma once
#include "../ATen/ATen.h"
