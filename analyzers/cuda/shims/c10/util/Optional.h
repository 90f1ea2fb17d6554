// KernelGate shim: c10/util/Optional.h (see ATen/ATen.h).
#pragma once
#include "../../ATen/ATen.h"
