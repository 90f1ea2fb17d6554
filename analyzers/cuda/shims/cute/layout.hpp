// KernelGate shim: cute/layout.hpp.
#pragma once
#include "tensor.hpp"
