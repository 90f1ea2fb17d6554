// KernelGate shim: thrust/device_ptr.h (see thrust/device_vector.h).
#pragma once
#include "../thrust/device_vector.h"
