// KernelGate shim: torch/torch.h (see torch/extension.h).
#pragma once
#include "extension.h"
