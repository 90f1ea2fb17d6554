// KernelGate shim (see torch/extension.h).
#pragma once
#include "../../../../extension.h"
