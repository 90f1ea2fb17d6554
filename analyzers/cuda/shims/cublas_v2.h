// KernelGate shim: cublas_v2.h.
#pragma once
#include "cublas_api.h"
