// Extractor, name resolution of calls: what a call expression evaluates to (an object a class of the
// file builds, a module a helper returns, a kernel a factory compiles, getattr and import_module with
// folded names, and the functions that hand back what they are given).
#include <algorithm>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "analyzers/python/extractor.h"
#include "analyzers/python/kernel_languages.h"
#include "analyzers/treesitter/ts_node.h"

namespace kgate::python::detail {

Value Extractor::eval_call(TSNode node, int scope, int depth) {
  Value v;
  TSNode fn = ts::field(node, "function");
  TSNode args = ts::field(node, "arguments");
  // torch.nn.Module's own methods that return the module (`net = Net(dim).to(x.device)`): the module
  // itself, where the class does not define the method.
  if (ts::is(fn, "attribute")) {
    static const std::unordered_set<std::string_view> kReturnsModule = {
        "to",    "cuda",           "cpu",  "float",        "half",  "double",  "bfloat16", "eval",
        "train", "requires_grad_", "type", "share_memory", "apply", "to_empty"};
    const std::string attr(ts::text(ts::field(fn, "attribute"), src_));
    if (kReturnsModule.count(attr)) {
      Value obj = eval(ts::field(fn, "object"), scope, depth + 1);
      if (obj.k == Value::K::Instance &&
          (obj.index >= 0 ? class_member(obj.index, attr, depth + 1, ReceiverKind::Value).k != Value::K::Function
                          : obj.path.rfind("torch.nn.", 0) == 0))
        return obj;
    }
  }
  // operator.attrgetter("a.b")(obj) reads obj.a.b.
  if (ts::is(fn, "call")) {
    TSNode inner_args = ts::field(fn, "arguments");
    const Value getter = eval(ts::field(fn, "function"), scope, depth + 1);
    if (getter.k == Value::K::Path && getter.path == "operator.attrgetter" && ts::named_count(inner_args) == 1)
      if (auto name = fold_in(positional_arg(inner_args, 0), scope)) {
        Value obj = eval(positional_arg(args, 0), scope, depth + 1);
        size_t from = 0;
        while (from <= name->text.size()) {
          const size_t dot = std::min(name->text.find('.', from), name->text.size());
          obj = attribute_of(obj, name->text.substr(from, dot - from), depth + 1);
          from = dot + 1;
        }
        obj.dynamic = true;
        return obj;
      }
  }
  Value callee = eval(fn, scope, depth + 1);
  if (callee.k == Value::K::Path) {
    const std::string& p = callee.path;
    // getattr(obj, "name"), object.__getattribute__(obj, "name"), and obj.__getattribute__("name") (the
    // same lookup, spelled as the dunder it runs).
    const bool unbound_dunder = p == "builtins.object.__getattribute__" || p == "builtins.type.__getattribute__";
    const bool bound_dunder = !unbound_dunder && ts::is(fn, "attribute") &&
                              (ts::text(ts::field(fn, "attribute"), src_) == "__getattribute__" ||
                               ts::text(ts::field(fn, "attribute"), src_) == "__getattr__");
    if (p == "builtins.getattr" || unbound_dunder || bound_dunder) {
      const TSNode object = bound_dunder ? ts::field(fn, "object") : positional_arg(args, 0);
      Value obj = eval(object, scope, depth + 1);
      auto name = fold_in(positional_arg(args, bound_dunder ? 0 : 1), scope);
      if (name) {
        Value r = attribute_of(obj, name->text, depth + 1);
        r.dynamic = r.dynamic || !name->plain;
        return r;
      }
      v.k = Value::K::Unknown;
      v.unresolved = true;
      v.path = value_path(obj, object) + ".?";
      return v;
    }
    if (p == "importlib.import_module" || p == "builtins.__import__") {
      auto name = fold_in(positional_arg(args, 0), scope);
      if (name) {
        v.k = Value::K::Path;
        v.path = name->text;
        v.dynamic = !name->plain;
        v.receiver = ReceiverKind::Module;
        return v;
      }
      v.k = Value::K::Unknown;
      v.unresolved = true;
      v.path = "?";
      return v;
    }
    if (p == "builtins.vars") {
      Value obj = eval(positional_arg(args, 0), scope, depth + 1);
      if (obj.k == Value::K::Path) {
        v.k = Value::K::Path;
        v.path = obj.path + ".__dict__";
        return v;
      }
      return v;
    }
    if (p == "functools.partial" || p == "functools.partialmethod" || p == "triton.jit" || p == "torch.jit.ignore" ||
        p == "functools.wraps" || p == "builtins.staticmethod" || p == "builtins.classmethod" || p == "copy.copy" ||
        p == "copy.deepcopy" || p == "types.MethodType") {
      TSNode target = positional_arg(args, 0);
      if (!ts_node_is_null(target)) {
        Value wrapped = eval(target, scope, depth + 1);
        // partialmethod(_apply, ...) in a class body names a method defined above it.
        if (wrapped.k != Value::K::Function && ts::is(target, "identifier"))
          if (const Value m = class_body_method(node, target); m.k == Value::K::Function) return m;
        return wrapped;
      }
    }
    // dataclasses.field(default=torch.relu): the class attribute holds the default (a factory: what it
    // returns).
    if (p == "dataclasses.field") {
      if (TSNode d = keyword_arg(args, "default"); !ts_node_is_null(d)) return eval(d, scope, depth + 1);
      if (const Value factory = eval(keyword_arg(args, "default_factory"), scope, depth + 1);
          factory.k == Value::K::Function)
        if (std::optional<Value> got = returned_callable(factory.index, depth + 1)) return *got;
    }
    if (p == "torch.utils.cpp_extension.load_inline" || p == "torch.utils.cpp_extension.load") {
      v.k = Value::K::Extension;
      v.index = extension_for(node, scope);
      return v;
    }
    if (kernel_compiler(p)) {  // cute.compile(fn, ...), cupy.RawKernel(src, name), numba.cuda.jit(fn)
      Value target = eval(positional_arg(args, 0), scope, depth + 1);
      v.k = Value::K::Kernel;
      v.index = target.k == Value::K::Function ? target.index : -1;
      v.path = p;
      return v;
    }
    if (p == "builtins.type" && ts::named_count(args) == 1) {
      Value obj = eval(positional_arg(args, 0), scope, depth + 1);
      if (obj.k == Value::K::Self) return attribute_of(obj, "__class__", depth + 1);
    }
    constexpr std::string_view kDictGet = ".__dict__.get";
    if (p.size() > kDictGet.size() && p.compare(p.size() - kDictGet.size(), kDictGet.size(), kDictGet) == 0) {
      if (auto k = fold_in(positional_arg(args, 0), scope)) {
        v.k = Value::K::Path;
        v.path = p.substr(0, p.size() - kDictGet.size()) + "." + k->text;
        v.dynamic = true;
        v.receiver = ReceiverKind::Module;
        return v;
      }
    }
    if (p == "builtins.super") {
      v.k = Value::K::Path;
      v.path = "super";
      return v;
    }
    v.k = Value::K::Instance;
    v.path = p;
    return v;
  }
  if (callee.k == Value::K::Class) {
    v.k = Value::K::Instance;
    v.index = callee.index;
    v.path = classes_[callee.index].name;
    return v;
  }
  // An object of a namedtuple type (Ops = collections.namedtuple(...); Ops(torch.relu)): its fields
  // are read by name (eval, attribute).
  if (callee.k == Value::K::Instance && callee.index < 0 && namedtuple_maker(callee.path)) return callee;
  if (callee.k == Value::K::Function && facts_.functions[callee.index].name == "__getitem__") return v;
  // A kernel factory (tilelang.jit) returns a compiled kernel; calling a CuTe kernel returns its
  // launchable (kernel(...).launch(...)); RawModule.get_function returns one of its kernels.
  if (callee.k == Value::K::Function &&
      (facts_.functions[callee.index].kind == FunctionKind::DslKernel || is_kernel_factory(callee.index))) {
    v.k = Value::K::Kernel;
    v.index = callee.index;
    v.path = facts_.functions[callee.index].qualname;
    return v;
  }
  // mod.get_function("name") hands out the kernel it names: calling that handle launches it.
  if (callee.k == Value::K::Kernel && kernel_getter_method(last_component(callee.path))) {
    Value kernel = callee;
    const auto name = fold_in(positional_arg(args, 0), scope);
    kernel.path = callee.path.substr(0, callee.path.rfind('.')) + "." + (name ? name->text : std::string("kernel"));
    return kernel;
  }
  if (callee.k == Value::K::Function) {
    if (Value k = returned_kernel(callee.index, depth + 1); k.k == Value::K::Kernel || k.k == Value::K::Path) return k;
    // A helper that builds a module (`self.stage = self._make_stage(...)`): calling the result calls it.
    if (Value m = returned_module(callee.index, depth + 1); m.k == Value::K::Instance) return m;
  }
  v.k = Value::K::Tensor;
  return v;
}

}  // namespace kgate::python::detail
