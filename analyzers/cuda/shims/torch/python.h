// KernelGate shim: torch/python.h (see torch/extension.h).
#pragma once
#include "extension.h"
