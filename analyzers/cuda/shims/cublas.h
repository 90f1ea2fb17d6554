// KernelGate shim: cublas.h.
#pragma once
#include "cublas_api.h"
