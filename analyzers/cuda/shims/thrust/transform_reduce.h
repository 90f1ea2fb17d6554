// KernelGate shim: thrust/transform_reduce.h (see thrust/device_vector.h).
#pragma once
#include "../thrust/device_vector.h"
