// KernelGate shim: cooperative_groups/reduce.h.
#pragma once
#include "../cooperative_groups.h"
