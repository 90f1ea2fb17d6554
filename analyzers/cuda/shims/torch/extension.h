// KernelGate shim: torch/extension.h (ATen, the CUDA context, pybind11 and TORCH_LIBRARY).
#pragma once
#include "../ATen/ATen.h"
#include "../c10/cuda/CUDAStream.h"
#include "../pybind11/pybind11.h"
#include "library.h"
#include "../ATen/core/dispatch/Dispatcher.h"
#ifndef TORCH_EXTENSION_NAME
#define TORCH_EXTENSION_NAME kgate_extension
#endif
namespace torch { namespace autograd { struct AutogradContext {}; template <class T> struct Function {}; } namespace nn { namespace functional {
KGATE_AT_FUNCTION(linear) KGATE_AT_FUNCTION(conv2d) KGATE_AT_FUNCTION(relu) KGATE_AT_FUNCTION(gelu) KGATE_AT_FUNCTION(softmax)
KGATE_AT_FUNCTION(layer_norm) KGATE_AT_FUNCTION(batch_norm) KGATE_AT_FUNCTION(max_pool2d) KGATE_AT_FUNCTION(avg_pool2d)
KGATE_AT_FUNCTION(scaled_dot_product_attention) KGATE_AT_FUNCTION(cross_entropy) KGATE_AT_FUNCTION(mse_loss) KGATE_AT_FUNCTION(pad)
struct LinearFuncOptions {}; struct Conv2dFuncOptions { template <class T> Conv2dFuncOptions& stride(T); template <class T> Conv2dFuncOptions& padding(T); };
} } namespace cuda { void synchronize(int64_t device = -1); bool is_available(); int device_count(); } }
