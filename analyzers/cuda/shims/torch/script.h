// KernelGate shim: torch/script.h (see torch/extension.h).
#pragma once
#include "extension.h"
