// KernelGate shim: thrust/iterator/counting_iterator.h (see thrust/device_vector.h).
#pragma once
#include "../../thrust/device_vector.h"
