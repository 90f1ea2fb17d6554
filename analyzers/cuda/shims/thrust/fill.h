// KernelGate shim: thrust/fill.h (see thrust/device_vector.h).
#pragma once
#include "../thrust/device_vector.h"
