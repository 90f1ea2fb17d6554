// KernelGate shim: ATen/Dispatch.h (see ATen/ATen.h).
#pragma once
#include "../ATen/ATen.h"
