// KernelGate shim: thrust/for_each.h (see thrust/device_vector.h).
#pragma once
#include "../thrust/device_vector.h"
