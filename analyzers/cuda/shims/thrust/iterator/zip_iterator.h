// KernelGate shim: thrust/iterator/zip_iterator.h (see thrust/device_vector.h).
#pragma once
#include "../../thrust/device_vector.h"
