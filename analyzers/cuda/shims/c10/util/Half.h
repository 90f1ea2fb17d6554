// KernelGate shim: c10/util/Half.h (see ATen/ATen.h).
#pragma once
#include "../../ATen/ATen.h"
