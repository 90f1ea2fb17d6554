// KernelGate shim: thrust/execution_policy.h (see thrust/device_vector.h).
#pragma once
#include "../thrust/device_vector.h"
