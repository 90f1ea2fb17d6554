// KernelGate shim: thrust/inner_product.h (see thrust/device_vector.h).
#pragma once
#include "../thrust/device_vector.h"
