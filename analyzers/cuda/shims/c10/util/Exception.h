// KernelGate shim: c10/util/Exception.h (see ATen/ATen.h).
#pragma once
#include "../../ATen/ATen.h"
