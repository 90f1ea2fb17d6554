// KernelGate shim: pybind11 (module definition and bindings).
#pragma once
#include <string>
#include <utility>
namespace pybind11 {
struct handle { };
struct object : handle { };
struct arg {
  explicit arg(const char* name);
  template <class T> arg& operator=(T&& value);
};
struct return_value_policy_ { };
enum class return_value_policy { automatic, reference, move, copy };
struct gil_scoped_release { gil_scoped_release(); ~gil_scoped_release(); };
struct gil_scoped_acquire { gil_scoped_acquire(); ~gil_scoped_acquire(); };
class module_ : public object {
 public:
  template <class Func, class... Extra> module_& def(const char* name, Func&& f, const Extra&... extra);
  module_ def_submodule(const char* name, const char* doc = nullptr);
  template <class T> module_& attr(const char* name);
  const char* doc;
};
using module = module_;
template <class T, class... Options> class class_ {
 public:
  class_(handle scope, const char* name);
  template <class Func, class... Extra> class_& def(const char* name, Func&& f, const Extra&... extra);
};
template <class... Args> struct init { };
}  // namespace pybind11
namespace py = pybind11;
#define PYBIND11_MODULE(name, variable)                                 \
  static void pybind11_init_##name(::pybind11::module_& variable);      \
  extern "C" void* PyInit_##name() { return nullptr; }                 \
  void pybind11_init_##name(::pybind11::module_& variable)
#define PYBIND11_OVERLOAD(...)
