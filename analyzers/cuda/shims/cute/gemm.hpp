// KernelGate shim: cute/algorithm/gemm.hpp.
#pragma once
#include "../tensor.hpp"
