// KernelGate shim: thrust/host_vector.h (see thrust/device_vector.h).
#pragma once
#include "../thrust/device_vector.h"
