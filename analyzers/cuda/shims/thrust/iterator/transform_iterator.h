// KernelGate shim: thrust/iterator/transform_iterator.h (see thrust/device_vector.h).
#pragma once
#include "../../thrust/device_vector.h"
