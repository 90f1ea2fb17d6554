// KernelGate shim: torch/types.h (see torch/extension.h).
#pragma once
#include "extension.h"
