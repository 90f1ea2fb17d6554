// KernelGate shim: torch/library.h (TORCH_LIBRARY registrations).
#pragma once
#include "../ATen/ATen.h"
namespace torch {
class CppFunction { public: template <class F> explicit CppFunction(F* f); };
class Library {
 public:
  template <class Schema> Library& def(Schema&& schema);
  template <class Schema, class Func> Library& def(Schema&& schema, Func&& f);
  template <class Name, class Func> Library& impl(Name&& name, Func&& f);
};
enum class DispatchKey { CPU, CUDA, Autograd, CompositeImplicitAutograd };
}  // namespace torch
#define TORCH_FN(f) (&f)
#define TORCH_LIBRARY(ns, m) static void TORCH_LIBRARY_init_##ns(::torch::Library& m); void TORCH_LIBRARY_init_##ns(::torch::Library& m)
#define TORCH_LIBRARY_FRAGMENT(ns, m) TORCH_LIBRARY(ns, m)
#define TORCH_LIBRARY_IMPL(ns, k, m) static void TORCH_LIBRARY_IMPL_init_##ns##_##k(::torch::Library& m); void TORCH_LIBRARY_IMPL_init_##ns##_##k(::torch::Library& m)
