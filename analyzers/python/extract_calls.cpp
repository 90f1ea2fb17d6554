// Extractor, pass 2: calls with resolved names, kernel launches, and the buffers handed to kernels or written in place.
#include "analyzers/python/extractor.h"

#include <algorithm>
#include <string>
#include <vector>

#include "analyzers/python/kernel_languages.h"
#include "analyzers/treesitter/ts_node.h"

namespace kgate::python::detail {

void Extractor::record_call(TSNode node, int scope, const Guard& guard) {
  TSNode fn = ts::field(node, "function");
  TSNode args = ts::field(node, "arguments");
  uint32_t start = ts_node_start_byte(node);
  // NAME.append(...) / extend / insert: what a list gathers (a pointer table built in a loop).
  // self.<attr>.append(...): what a container attribute gathers (an empty nn.ModuleList filled later).
  if (ts::is(fn, "attribute") && !ts_node_is_null(args)) {
    const std::string_view method = ts::text(ts::field(fn, "attribute"), src_);
    TSNode object = ts::field(fn, "object");
    if (method == "append" || method == "extend" || method == "insert" || method == "appendleft" || method == "add" ||
        method == "setdefault" || method == "update") {
      if (ts::is(object, "identifier")) {
        container_fills_.push_back({scope, std::string(ts::text(object, src_)), ts_node_start_byte(args),
                                    ts_node_end_byte(args), args, edge_dead(guard)});
      } else if (ts::is(object, "attribute")) {
        const Value owner = eval(ts::field(object, "object"), scope);
        if (owner.k == Value::K::Self && owner.index >= 0)
          attr_fills_.push_back({owner.index, std::string(ts::text(ts::field(object, "attribute"), src_)), args, scope,
                                 edge_dead(guard)});
      }
    }
  }

  // Triton launch: kernel[grid](...); the same shape launches a Numba CUDA kernel.
  if (ts::is(fn, "subscript")) {
    Value k = eval(ts::field(fn, "value"), scope);
    const bool triton = k.k == Value::K::Function && facts_.functions[k.index].kind == FunctionKind::TritonJit;
    const bool dsl = (k.k == Value::K::Function && facts_.functions[k.index].kind == FunctionKind::DslKernel) ||
                     k.k == Value::K::Kernel;
    if (triton || dsl) {
      Launch l;
      l.kind = triton ? LaunchKind::Triton : LaunchKind::Dsl;
      l.kernel = k.k == Value::K::Kernel ? value_path(k, ts::field(fn, "value")) : facts_.functions[k.index].qualname;
      l.kernel_function = k.index;
      l.grid = std::string(ts::text(ts::field(fn, "subscript"), src_));
      l.grid_empty = grid_is_empty(ts::field(fn, "subscript"), scope);
      l.function = fn_of(scope);
      l.guard = guard;
      l.span = ts::span(node);
      launch_start_.push_back(start);
      facts_.launches.push_back(l);
      if (k.index >= 0) add_edge(fn_of(scope), k.index, edge_dead(guard));
      if (triton) triton_launch_sites_.push_back({k.index, args, scope});
      // KERNELS[x.dtype][grid](...): the launch runs whichever kernel of the table the key picks.
      if (TSNode table = ts::field(fn, "value"); ts::is(table, "subscript"))
        for (int other : kernel_functions_in(ts::field(table, "value"), scope))
          if (other != k.index) add_edge(fn_of(scope), other, edge_dead(guard));
      // `for k in (relu_kernel, add_kernel): k[grid](...)`: the loop launches each of them.
      if (TSNode iterable = iterated_by(ts::field(fn, "value"), scope); !ts_node_is_null(iterable))
        for (const Value& other : iterated_kernels(iterable, scope, 0))
          if (other.index >= 0 && other.index != k.index) add_edge(fn_of(scope), other.index, edge_dead(guard));
      mark_args_written(args, scope, /*launch=*/true);
      note_launch_arguments(args);
      return;
    }
  }

  Value callee = eval(fn, scope);
  Call c;
  c.callee = std::string(ts::text(fn, src_));
  if (c.callee.size() > 200) c.callee = c.callee.substr(0, 200) + "...";
  c.function = fn_of(scope);
  c.guard = guard;
  c.span = ts::span(node);
  c.dynamic_name = callee.dynamic;
  c.unresolved_dynamic = callee.unresolved;
  if (ts::is(fn, "attribute")) {
    c.receiver = callee.receiver == ReceiverKind::None ? ReceiverKind::Value : callee.receiver;
    if (c.receiver != ReceiverKind::Module)
      c.state_receiver = eval(ts::field(fn, "object"), scope).receiver == ReceiverKind::Self;
    if (callee.k == Value::K::Path || callee.k == Value::K::Function || callee.k == Value::K::ExtFunction) {
      ReceiverKind rk = root_kind(ts::field(fn, "object"), scope);
      if (rk == ReceiverKind::Param && c.receiver != ReceiverKind::Module) c.receiver = ReceiverKind::Param;
    }
    // output.zero_(): the output argument the harness hands in is the entry's to write.
    if (c.receiver == ReceiverKind::Param && !output_params_.empty() &&
        root_kind(ts::field(fn, "object"), scope) == ReceiverKind::Output)
      c.receiver = ReceiverKind::Output;
  }

  std::vector<std::string> children;  // the torch modules a call runs (a carrier's function, a hook)
  bool container = false;             // a module container: its children are resolved after pass 2
  switch (callee.k) {
    case Value::K::Function: {
      c.resolved = facts_.functions[callee.index].qualname;
      c.local_target = true;
      add_edge(fn_of(scope), callee.index, edge_dead(guard));
      decorated_callees(callee.index, scope, guard, children);
      call_sites_[callee.index].push_back({args, scope, ts::is(fn, "attribute")});
      registered_callees(callee.index, args, ts::is(fn, "attribute"), scope, guard, children);
      mark_args_written(args, scope);
      // Calling a CuTe DSL kernel inside its @cute.jit launcher: kernel(...).launch(grid, block).
      if (facts_.functions[callee.index].kind == FunctionKind::DslKernel)
        record_launch(node, LaunchKind::Dsl, c.resolved, callee.index, scope, guard);
      break;
    }
    case Value::K::Kernel: {
      // A compiled kernel handle: calling it launches (cupy kernels, cute.compile results, TileLang
      // kernels, jiterator functions); get_function only hands out another handle.
      c.resolved = callee.path;
      if (!kernel_getter_method(last_component(callee.path))) {
        record_launch(node, LaunchKind::Dsl, callee.path, callee.index, scope, guard);
        if (callee.index >= 0) add_edge(fn_of(scope), callee.index, edge_dead(guard));
        mark_args_written(args, scope, /*launch=*/true);
        note_launch_arguments(args);
      }
      break;
    }
    case Value::K::Class: {
      c.resolved = classes_[callee.index].name;
      c.local_target = true;
      auto it = classes_[callee.index].methods.find("__init__");
      if (it != classes_[callee.index].methods.end()) add_edge(fn_of(scope), it->second, edge_dead(guard));
      break;
    }
    case Value::K::Instance: {
      c.instance_call = true;
      if (callee.index >= 0) {
        c.resolved = classes_[callee.index].name;
        c.local_target = true;
        for (const char* m : {"forward", "__call__"}) {
          Value target = class_member(callee.index, m, 0, ReceiverKind::Value);
          if (target.k == Value::K::Function) add_edge(fn_of(scope), target.index, edge_dead(guard));
        }
        mark_args_written(args, scope);
      } else {
        c.resolved = callee.path;
        container = module_container(callee.path);
      }
      break;
    }
    case Value::K::ExtFunction: {
      const Extension& ext = facts_.extensions[callee.index];
      c.resolved = "extension." + ext.name + "." + callee.path;
      record_launch(node, LaunchKind::Extension, ext.name + "." + callee.path, -1, scope, guard);
      facts_.launches.back().arg_maybe_input = maybe_inputs(args, scope);
      mark_args_written(args, scope, /*launch=*/true);
      note_launch_arguments(args);
      break;
    }
    case Value::K::Path:
      c.resolved = callee.path;
      if (kernel_source_compiler(callee.path)) record_kernel_source(args, callee.path);
      if (kernel_launch_api(callee.path)) {  // cuLaunchKernel(kernel, grid..., block..., args)
        record_launch(node, LaunchKind::Dsl, std::string(ts::text(positional_arg(args, 0), src_)).substr(0, 120), -1,
                      scope, guard);
        mark_args_written(args, scope, /*launch=*/true);
        note_launch_arguments(args);
      }
      break;
    case Value::K::Unknown:
      c.resolved = callee.unresolved ? callee.path : c.callee;
      break;
    default:
      c.resolved = value_path(callee, fn);
      break;
  }
  c.method = last_component(c.resolved);
  if (c.resolved.size() > 300) c.resolved = c.resolved.substr(0, 300);
  record_operator_function(node, c.resolved, scope, guard);  // abs(x), operator.add(x, y) on tensors
  note_element_sites(node, c.resolved, scope);               // map(f, xs): f's parameters are xs's elements
  // x = self.bn(x); x.relu_(): the in-place method writes the rebound local, not the caller's tensor.
  if (c.receiver == ReceiverKind::Param && ts::is(fn, "attribute") && c.method.size() > 1 && c.method.back() == '_' &&
      !still_param(ts::field(fn, "object"), scope))
    c.receiver = ReceiverKind::Value;

  // Arguments: folded strings, keywords.
  uint32_t n = ts::named_count(args);
  for (uint32_t i = 0; i < n && ts::is(args, "argument_list"); ++i) {
    TSNode a = ts::named_child(args, i);
    if (ts::is(a, "keyword_argument")) {
      std::string key(ts::text(ts::field(a, "name"), src_));
      TSNode val = ts::field(a, "value");
      Value kv = eval(val, scope);
      c.keywords.push_back(key);
      c.keyword_values.push_back(kv.k == Value::K::Path ? kv.path : std::string(ts::text(val, src_)).substr(0, 80));
      if (key == "out") {
        note_written(scope, val);
        if (still_param(val, scope)) c.writes_param = true;
      }
      if (key == "inplace" && ts::text(val, src_) == "True" && still_param(positional_arg(args, 0), scope))
        c.writes_param = true;
      if (key == "dtype" && kv.k == Value::K::Path && is_dtype_path(kv.path))
        add_cast(canonical_dtype(kv.path), "keyword", node, scope, guard);
    } else if (!ts::is(a, "comment")) {
      if (!ts::is(a, "list_splat") && !ts::is(a, "dictionary_splat")) ++c.positional_args;
      if (auto s = fold_in(a, scope)) c.string_args.push_back(s->text.substr(0, 256));
    }
  }

  if (c.resolved == "torch.compile" || c.resolved == "functools.partial" || c.resolved == "functools.partialmethod") {
    Value wrapped = eval(positional_arg(args, 0), scope);
    if (wrapped.k != Value::K::Function && ts::is(positional_arg(args, 0), "identifier"))
      wrapped = class_body_method(node, positional_arg(args, 0));  // partialmethod(_apply, ...) in a class body
    if (wrapped.k == Value::K::Function) c.wrapped_function = wrapped.index;
    // functools.partial(f, op=torch.relu): the arguments it binds are f's, after f itself (a
    // partialmethod's first one stands where the method's self does).
    if (wrapped.k == Value::K::Function && c.resolved != "torch.compile")
      call_sites_[wrapped.index].push_back(
          {args, scope, ts::is(positional_arg(args, 0), "attribute"), c.resolved == "functools.partial" ? 1 : 0});
  }

  // torch.relu_(x): a module-level in-place function writes its first argument.
  if (c.receiver == ReceiverKind::Module && c.resolved.rfind("torch.", 0) == 0 &&
      c.resolved.rfind("torch.Tensor.", 0) != 0 && c.method.size() > 1 && c.method.back() == '_' &&
      c.method.front() != '_') {
    TSNode first = positional_arg(args, 0);
    if (!ts_node_is_null(first) && still_param(first, scope)) c.writes_param = true;
  }

  // In-place methods and container writes mark their receiver as written.
  if (ts::is(fn, "attribute")) {
    std::string m = c.method;
    if (!m.empty() && m.back() == '_' && m.front() != '_') note_written(scope, ts::field(fn, "object"));
    if (container_write_methods().count(m) || (!m.empty() && m.back() == '_'))
      record_container_mutation(ts::field(fn, "object"), scope);
  }

  // Casts. tl.dot asked for TF32 inputs converts its operands to TF32 ("tf32x3" keeps fp32 accuracy);
  // one that does not say is Triton's default, TF32 on fp32 operands (judged in finish_dot_defaults).
  if (c.resolved == "triton.language.dot" || c.resolved == "triton.language.dot_scaled") {
    bool said = false;
    for (size_t k = 0; k < c.keywords.size(); ++k) {
      if (c.keywords[k] != "input_precision" && c.keywords[k] != "allow_tf32") continue;
      said = true;
      const std::string& v = c.keyword_values[k];
      if ((c.keywords[k] == "input_precision" && (v == "\"tf32\"" || v == "'tf32'")) ||
          (c.keywords[k] == "allow_tf32" && v == "True"))
        add_cast("tf32", "input_precision", node, scope, guard);
    }
    // tl.dot(a, b, acc, input_precision, ...) can also say it positionally.
    // (dot_scaled's operands are fp8/fp4 by construction: no TF32 default.)
    if (c.resolved == "triton.language.dot") {
      if (!said && !ts_node_is_null(positional_arg(args, 3))) said = true;
      if (said)
        dot_precision_said_.insert(fn_of(scope));
      else
        dot_defaults_.push_back({node, scope, guard});
    }
  }
  if (c.resolved == "os.environ.setdefault" || c.resolved == "os.putenv") note_environment(args, scope);
  if (ts::is(fn, "attribute") && c.receiver != ReceiverKind::Module) {
    if (c.method == "half")
      add_cast("torch.float16", "method", node, scope, guard);
    else if (c.method == "bfloat16")
      add_cast("torch.bfloat16", "method", node, scope, guard);
    else if (c.method == "to" || c.method == "type") {
      TSNode first = positional_arg(args, 0);
      Value dv = eval(first, scope);
      if (dv.k == Value::K::Path && is_dtype_path(dv.path))
        add_cast(canonical_dtype(dv.path), "method", node, scope, guard);
    }
  }
  if (c.resolved == "triton.language.cast") {
    Value dv = eval(positional_arg(args, 1), scope);
    if (dv.k == Value::K::Path) add_cast(canonical_dtype(dv.path), "function", node, scope, guard);
  }
  if (c.resolved == "torch.autocast" || c.resolved == "torch.cuda.amp.autocast" || c.resolved == "torch.amp.autocast" ||
      c.resolved == "torch.cpu.amp.autocast")
    add_cast("autocast", "function", node, scope, guard);
  if (c.resolved == "torch.set_float32_matmul_precision")
    add_cast("tf32", !c.string_args.empty() && c.string_args[0] == "highest" ? "flag-off" : "flag", node, scope, guard);

  // module.__dict__.update(name=value) / vars(module).update({...}) writes each name it is given.
  constexpr std::string_view kDictUpdate = ".__dict__.update";
  if (c.resolved.size() > kDictUpdate.size() &&
      c.resolved.compare(c.resolved.size() - kDictUpdate.size(), kDictUpdate.size(), kDictUpdate) == 0) {
    const std::string owner = c.resolved.substr(0, c.resolved.size() - kDictUpdate.size());
    std::vector<std::pair<std::string, bool>> names;  // (attribute, folded to a constant name)
    for (TSNode a : ts::named_children(args)) {
      if (ts::is(a, "keyword_argument")) {
        names.emplace_back(std::string(ts::text(ts::field(a, "name"), src_)), true);
      } else if (ts::is(a, "dictionary")) {
        for (TSNode pair : ts::named_children(a)) {
          if (!ts::is(pair, "pair")) continue;
          auto key = fold_in(ts::field(pair, "key"), scope);
          names.emplace_back(key ? key->text : "?", key && key->plain);
        }
      } else if (!ts::is(a, "comment")) {
        names.emplace_back("?", false);  // a mapping built elsewhere: which names it writes is unknown
      }
    }
    for (const auto& [name, plain] : names) {
      AttributeWrite w;
      w.kind = WriteKind::Setattr;
      w.target = std::string(ts::text(node, src_)).substr(0, 200);
      w.attribute = name;
      w.dynamic_name = !plain;
      w.resolved = owner + "." + name;
      w.root = ReceiverKind::Module;
      w.function = fn_of(scope);
      w.guard = guard;
      w.span = ts::span(node);
      facts_.writes.push_back(w);
    }
  }

  // setattr(obj, "name", value) is a write.
  if (c.resolved == "builtins.setattr" || c.resolved == "builtins.object.__setattr__" ||
      c.resolved == "object.__setattr__" || c.resolved == "builtins.type.__setattr__" ||
      c.resolved == "type.__setattr__") {
    TSNode obj = positional_arg(args, 0);
    Value ov = eval(obj, scope);
    AttributeWrite w;
    w.kind = WriteKind::Setattr;
    w.target = std::string(ts::text(node, src_)).substr(0, 200);
    auto name = fold_in(positional_arg(args, 1), scope);
    w.attribute = name ? name->text : "?";
    w.dynamic_name = !name || !name->plain;
    w.resolved = value_path(ov, obj) + "." + w.attribute;
    w.root = root_kind(obj, scope);
    if (ov.k == Value::K::Path) w.root = ReceiverKind::Module;
    w.entry_rebinding = entry_rebinding_at_.count(ts_node_start_byte(node)) > 0;
    w.function = fn_of(scope);
    w.guard = guard;
    w.span = ts::span(node);
    facts_.writes.push_back(w);
  }

  // Dynamic imports are imports too.
  if ((c.resolved == "importlib.import_module" || c.resolved == "builtins.__import__") && !c.string_args.empty()) {
    Import im;
    im.module = c.string_args[0];
    im.dynamic = true;
    im.function = fn_of(scope);
    im.span = ts::span(node);
    facts_.imports.push_back(im);
  }
  if (c.resolved == "torch.utils.cpp_extension.load_inline" || c.resolved == "torch.utils.cpp_extension.load")
    extension_for(node, scope);

  // self.layers[i](x): an element of a module container.
  if (!container && ts::is(fn, "subscript")) {
    const Value base = eval(ts::field(fn, "value"), scope);
    if (base.k == Value::K::Instance && base.index < 0 && module_container(base.path)) {
      c.resolved = base.path;
      c.method = last_component(base.path);
      c.instance_call = true;
      container = true;
    }
  }
  if (c.resolved == "torch.Tensor.data_ptr" && pointer_argument(node, scope)) c.launch_argument = true;
  if (c.resolved.rfind("torch.", 0) == 0) c.scalar_operands = host_operands(node, scope);
  if (c.resolved.rfind("numpy.", 0) == 0 || c.resolved.rfind("scipy.", 0) == 0)
    c.host_data = host_data_operands(node, scope);
  note_graph_call(node, scope, c);

  // A function handed to a carrier that calls it (functools.reduce(torch.mm, ...), map, checkpoint,
  // tree_map, vmap) is called here: a library function is a call of it, a local one an edge to it.
  // operator.methodcaller("matmul", b) calls the tensor method it names.
  if (callable_carrier(c.resolved)) {
    TSNode target = positional_arg(args, 0);
    Value carried = ts_node_is_null(target) ? Value{} : eval(target, scope);
    if (carried.k == Value::K::Path && !is_dtype_path(carried.path)) {
      children.push_back(carried.path);
    } else if (carried.k == Value::K::Function) {
      add_edge(fn_of(scope), carried.index, edge_dead(guard));
    }
    // reduce(lambda a, f: f(a), [torch.relu], x): a library function in a sequence the carrier walks.
    for (TSNode a : ts::named_children(args)) {
      if (ts_node_eq(a, target) || !(ts::is(a, "list") || ts::is(a, "tuple") || ts::is(a, "set"))) continue;
      for (TSNode item : ts::named_children(a)) {
        const Value held = eval(item, scope);
        if (held.k == Value::K::Path && held.receiver == ReceiverKind::Module && !is_dtype_path(held.path))
          children.push_back(held.path);
        else if (held.k == Value::K::Function)
          add_edge(fn_of(scope), held.index, edge_dead(guard));
      }
    }
  }
  if (c.resolved == "operator.methodcaller" && !c.string_args.empty())
    children.push_back("torch.Tensor." + c.string_args[0]);
  // A forward hook or pre-hook registered on the model runs with every call of it: an edge from the
  // entry to the hook's body.
  if ((c.method == "register_forward_hook" || c.method == "register_forward_pre_hook" ||
       c.method == "register_module_forward_hook" || c.method == "register_module_forward_pre_hook")) {
    Value hook = eval(positional_arg(args, 0), scope);
    for (int entry : facts_.entries.empty() ? std::vector<int>{facts_.entry} : facts_.entries) {
      if (entry < 0) continue;
      if (hook.k == Value::K::Function) add_edge(entry, hook.index, edge_dead(guard));
    }
    if (hook.k == Value::K::Path && !is_dtype_path(hook.path)) children.push_back(hook.path);
  }

  // A target that is a value, not a name: what it may hold is called here (extract_callees.cpp).
  // A path under a class of this file (`ModelNew.ACTS[]` from type(self).ACTS[0]) names no library
  // function: what the class attribute holds is followed instead.
  const auto local_class_path = [&](const std::string& p) {
    const std::string head = p.substr(0, p.find('.'));
    return head.size() < p.size() &&
           std::any_of(classes_.begin(), classes_.end(), [&](const ClassInfo& ci) { return ci.name == head; });
  };
  const bool named = callee.k == Value::K::Function || callee.k == Value::K::Kernel || callee.k == Value::K::Class ||
                     (callee.k == Value::K::Instance && callee.path.rfind("builtins.", 0) != 0) ||
                     callee.k == Value::K::ExtFunction || callee.k == Value::K::Extension ||
                     (callee.k == Value::K::Path && !(computed_target(fn) && local_class_path(callee.path)));
  if (!container && !c.unresolved_dynamic && !named && computed_target(fn))
    pending_callees_.push_back({{facts_.calls.size() + children.size(), fn, scope, guard, start}, false});
  else if (!container && !c.unresolved_dynamic &&
           (((callee.k == Value::K::Param || !named) && (ts::is(fn, "identifier") || ts::is(fn, "attribute"))) ||
            (callee.k == Value::K::Instance && callee.index < 0 && computed_target(fn))))
    pending_callees_.push_back({{facts_.calls.size() + children.size(), fn, scope, guard, start}, true});

  // A name that another path binds to something else (`if fast: f = torch.relu` / `else: f = _fast`,
  // the cases of a `match`): the call runs whichever binding reaches it.
  std::vector<std::string> modules;
  if (ts::is(fn, "identifier") || ts::is(fn, "attribute"))
    other_reaching_callees(fn, scope, callee, guard, children, modules);
  for (const std::string& module : modules) {
    Call cc = c;
    cc.resolved = module;
    cc.method = last_component(module);
    cc.instance_call = true;
    call_start_.push_back(start);
    facts_.calls.push_back(std::move(cc));
  }
  // A carrier's or hook's call is a call of the torch function it runs, here.
  for (const std::string& child : children) {
    Call cc = c;
    cc.resolved = child;
    cc.method = last_component(child);
    call_start_.push_back(start);
    facts_.calls.push_back(std::move(cc));
  }
  if (container) pending_containers_.push_back({facts_.calls.size(), fn, scope, guard, start});
  call_start_.push_back(start);
  facts_.calls.push_back(std::move(c));
}

bool Extractor::callable_carrier(const std::string& path) {
  static const std::unordered_set<std::string> kCarriers = {"functools.reduce",
                                                            "operator.call",
                                                            "builtins.map",
                                                            "builtins.filter",
                                                            "itertools.starmap",
                                                            "itertools.accumulate",
                                                            "torch.utils.checkpoint.checkpoint",
                                                            "torch.utils.checkpoint.checkpoint_sequential",
                                                            "torch.utils._pytree.tree_map",
                                                            "torch.utils._pytree.tree_map_only",
                                                            "torch.vmap",
                                                            "torch.func.vmap",
                                                            "torch.func.functional_call",
                                                            "torch.func.grad",
                                                            "torch.func.jacrev",
                                                            "torch.func.jacfwd",
                                                            "torch.cond",
                                                            "torch._higher_order_ops.cond",
                                                            "torch.map",
                                                            "torch._higher_order_ops.map"};
  return kCarriers.count(path) > 0;
}

bool Extractor::module_container(const std::string& path) {
  return path == "torch.nn.Sequential" || path == "torch.nn.ModuleList" || path == "torch.nn.ModuleDict" ||
         path == "torch.nn.modules.container.Sequential";
}

// x.data_ptr() handed, possibly through wrappers (ctypes.c_void_p(...), int(...)), as an argument to
// a call that is no key builder: a ctypes library function, an extension, a driver call. Its value is
// a pointer for the callee, not a key. A key builder (hash, id, tuple, str, a dict's get/setdefault/pop)
// or a function of this file (which might build a key) does not count; neither does a pointer kept in
// a name, a tuple, a comparison or a subscript.
bool Extractor::pointer_argument(TSNode node, int scope) {
  static const std::unordered_set<std::string> key_builders = {
      "builtins.hash", "builtins.id",  "builtins.tuple", "builtins.str",    "builtins.repr", "builtins.frozenset",
      "builtins.dict", "builtins.set", "builtins.list",  "builtins.format", "builtins.print"};
  static const std::unordered_set<std::string> key_methods = {"get",         "setdefault",  "pop",   "__contains__",
                                                              "__getitem__", "__setitem__", "index", "count",
                                                              "add",         "append",      "update"};
  TSNode at = node;
  for (int depth = 0; depth < 6; ++depth) {
    TSNode parent = ts_node_parent(at);
    if (ts::is(parent, "parenthesized_expression") || ts::is(parent, "keyword_argument")) {
      at = parent;
      continue;
    }
    if (!ts::is(parent, "argument_list")) return false;
    TSNode call = ts_node_parent(parent);
    if (!ts::is(call, "call")) return false;
    TSNode fn = ts::field(call, "function");
    const Value callee = eval(fn, scope);
    if (callee.k == Value::K::Function || callee.k == Value::K::Class) return false;  // this file's own code
    const std::string path = callee.k == Value::K::Path ? callee.path : std::string();
    if (key_builders.count(path)) return false;
    if (ts::is(fn, "attribute") && key_methods.count(std::string(ts::text(ts::field(fn, "attribute"), src_))))
      return false;
    // int(p), ctypes.c_void_p(p) and numpy.uint64(p) only re-wrap the pointer: what receives the
    // wrapper decides. A name bound to a wrapper (`p = ctypes.c_void_p`) resolves to it as well.
    if (path == "builtins.int" || path.rfind("ctypes.c_", 0) == 0 || path == "ctypes.cast" || path == "numpy.uint64" ||
        path == "numpy.int64" || path == "numpy.uintp" || path == "numpy.intp") {
      at = call;
      continue;
    }
    return true;
  }
  return false;
}

// A grid with a dimension that folds to zero launches no program at all.
bool Extractor::grid_is_empty(TSNode grid, int scope) {
  if (ts::is(grid, "lambda")) grid = ts::field(grid, "body");
  if (ts::is(grid, "identifier")) {
    Found f = find_name(std::string(ts::text(grid, src_)), scope);
    if (f.k == Found::K::Binding && f.bindings && f.bindings->size() == 1 && !ts_node_is_null(f.bindings->back().expr))
      return grid_is_empty(f.bindings->back().expr, f.bindings->back().scope);
    return false;
  }
  if (ts::is(grid, "parenthesized_expression")) return grid_is_empty(ts::named_child(grid, 0), scope);
  int saved = current_scope_;
  current_scope_ = scope;
  bool empty = false;
  if (ts::is(grid, "tuple") || ts::is(grid, "list")) {
    for (uint32_t i = 0; i < ts::named_count(grid); ++i) {
      auto v = folder_.fold_int(ts::named_child(grid, i));
      if (v && *v <= 0) empty = true;
    }
  } else if (auto v = folder_.fold_int(grid)) {
    empty = *v <= 0;
  }
  current_scope_ = saved;
  return empty;
}

void Extractor::record_launch(TSNode node, LaunchKind kind, const std::string& kernel, int kernel_function, int scope,
                              const Guard& guard) {
  Launch l;
  l.kind = kind;
  l.kernel = kernel;
  l.kernel_function = kernel_function;
  l.function = fn_of(scope);
  l.guard = guard;
  l.span = ts::span(node);
  launch_start_.push_back(ts_node_start_byte(node));
  facts_.launches.push_back(l);
}

// For each positional argument of an extension call, whether it may be an input the harness passed:
// a parameter of the calling function or a view of one. Empty when positions cannot be mapped
// (`*args`, `**kwargs`, keyword arguments).
std::vector<bool> Extractor::maybe_inputs(TSNode args, int scope) {
  std::vector<bool> out;
  uint32_t n = ts::named_count(args);
  for (uint32_t i = 0; i < n && ts::is(args, "argument_list"); ++i) {
    TSNode a = ts::named_child(args, i);
    if (ts::is(a, "comment")) continue;
    if (ts::is(a, "keyword_argument") || ts::is(a, "list_splat") || ts::is(a, "dictionary_splat")) return {};
    out.push_back(root_kind(a, scope) == ReceiverKind::Param);  // a parameter, rebound or not
  }
  return out;
}

// `launch`: the arguments go to a kernel, so wrapper calls bound elsewhere (a_ptr =
// make_ptr(dtype, a.data_ptr(), ...)) are launch arguments too.
void Extractor::mark_args_written(TSNode args, int scope, bool launch) {
  uint32_t n = ts::named_count(args);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode a = ts::named_child(args, i);
    if (ts::is(a, "keyword_argument")) a = ts::field(a, "value");
    mark_written_deep(scope, a, 0, launch);
  }
}

// A buffer handed to a kernel is often wrapped first: from_dlpack(y), cuda.as_cuda_array(y.view(-1)),
// (x.data_ptr(), y.data_ptr()), or a name bound to such a wrapper (`c_ = from_dlpack(c)`). The
// wrapped tensor is the one the kernel writes.
void Extractor::mark_written_deep(int scope, TSNode expr, int depth, bool launch) {
  if (ts_node_is_null(expr) || depth > 6) return;
  note_written(scope, expr);
  if (ts::is(expr, "call")) {
    TSNode args = ts::field(expr, "arguments");
    if (launch) note_launch_arguments(args);
    for (uint32_t i = 0; i < ts::named_count(args); ++i) {
      TSNode a = ts::named_child(args, i);
      mark_written_deep(scope, ts::is(a, "keyword_argument") ? ts::field(a, "value") : a, depth + 1, launch);
    }
    TSNode fn = ts::field(expr, "function");
    if (ts::is(fn, "attribute")) mark_written_deep(scope, ts::field(fn, "object"), depth + 1, launch);
  } else if (ts::is(expr, "tuple") || ts::is(expr, "list") || ts::is(expr, "parenthesized_expression") ||
             ts::is(expr, "expression_list")) {
    for (uint32_t i = 0; i < ts::named_count(expr); ++i)
      mark_written_deep(scope, ts::named_child(expr, i), depth + 1, launch);
  } else if (ts::is(expr, "identifier")) {
    auto it = scopes_[scope].bindings.find(std::string(ts::text(expr, src_)));
    if (it == scopes_[scope].bindings.end()) return;
    for (const Binding& b : it->second) {
      if (ts_node_is_null(b.expr)) continue;
      if (ts::is(b.expr, "call")) mark_written_deep(scope, b.expr, depth + 1, launch);
      // A plain alias, on any path (`dst = output` in one branch of a ping-pong between two buffers):
      // what the alias is handed to may write the aliased tensor.
      if (ts::is(b.expr, "identifier")) mark_written_deep(scope, b.expr, depth + 1, launch);
      // A list handed to a launch (or to the call that builds its argument, torch.tensor(table)) is a
      // table for the kernel: what its literal holds and what is appended to it are launch arguments.
      if (launch && (ts::is(b.expr, "list") || ts::is(b.expr, "tuple"))) {
        note_launch_arguments(b.expr);
        launch_containers_.emplace_back(scope, std::string(ts::text(expr, src_)));
      }
    }
  }
}

// The arguments of a launch: a call among them (x.data_ptr() handed to a kernel) is a launch
// argument, not a key computed for a cache.
void Extractor::note_launch_arguments(TSNode args) {
  if (!ts_node_is_null(args)) launch_arg_ranges_.emplace_back(ts_node_start_byte(args), ts_node_end_byte(args));
}

}  // namespace kgate::python::detail
