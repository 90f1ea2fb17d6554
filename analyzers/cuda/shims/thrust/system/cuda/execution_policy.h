// KernelGate shim: thrust/system/cuda/execution_policy.h (see thrust/device_vector.h).
#pragma once
#include "../../../thrust/device_vector.h"
