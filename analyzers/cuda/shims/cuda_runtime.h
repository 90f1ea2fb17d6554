// KernelGate shim: cuda_runtime.h.
#pragma once
#include "kgate_cuda_defs.h"
#include "cuda_runtime_api.h"
#include "cuda_fp16.h"
