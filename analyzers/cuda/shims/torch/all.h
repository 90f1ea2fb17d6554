// KernelGate shim: torch/all.h (see torch/extension.h).
#pragma once
#include "extension.h"
