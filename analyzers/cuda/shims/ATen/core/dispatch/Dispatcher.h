// KernelGate shim: ATen/core/dispatch/Dispatcher.h (operators looked up by their schema name).
#pragma once
#include "../../ATen.h"
namespace c10 {
template <class Sig> class TypedOperatorHandle;
template <class R, class... A> class TypedOperatorHandle<R(A...)> {
 public:
  R call(A... args) const;
  R redispatch(A... args) const;
};
class OperatorHandle {
 public:
  template <class Sig> TypedOperatorHandle<Sig> typed() const;
};
class Dispatcher {
 public:
  static Dispatcher& singleton();
  OperatorHandle findSchemaOrThrow(const char* name, const char* overload_name);
  std::optional<OperatorHandle> findSchema(const char* name, const char* overload_name);
  std::optional<OperatorHandle> findOp(const char* name, const char* overload_name);
};
}  // namespace c10
