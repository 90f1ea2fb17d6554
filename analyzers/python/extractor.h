// Private to analyzers/python (python_facts.cpp and extract_*.cpp): the Extractor behind extract_facts, and its tables.
#pragma once

#include <tree_sitter/api.h>

#include <cctype>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <set>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "analyzers/core/diagnostic.h"
#include "analyzers/core/facts.h"
#include "analyzers/core/source.h"
#include "analyzers/harness/harness.h"
#include "analyzers/ingest/ingest.h"
#include "analyzers/python/const_fold.h"
#include "analyzers/python/python_facts.h"

namespace kgate::python::detail {

constexpr int kMaxEvalDepth = 20;

inline const std::unordered_set<std::string>& builtin_names() {
  static const std::unordered_set<std::string> names = {
      "abs",         "all",     "any",     "bool",   "breakpoint", "bytes",        "callable",     "chr",
      "classmethod", "compile", "delattr", "dict",   "dir",        "divmod",       "enumerate",    "eval",
      "exec",        "filter",  "float",   "format", "frozenset",  "getattr",      "globals",      "hasattr",
      "hash",        "hex",     "id",      "input",  "int",        "isinstance",   "issubclass",   "iter",
      "len",         "list",    "locals",  "map",    "max",        "min",          "next",         "object",
      "open",        "ord",     "pow",     "print",  "property",   "range",        "repr",         "reversed",
      "round",       "set",     "setattr", "slice",  "sorted",     "staticmethod", "str",          "sum",
      "super",       "tuple",   "type",    "vars",   "zip",        "__import__",   "__builtins__", "memoryview",
      "bytearray",   "exit",    "quit"};
  return names;
}

// Methods that return their receiver's data unchanged (a view, a cast or a copy): the value is still
// "the input" for returns-input, and still "the buffer" for the written-by-kernel question.
inline const std::unordered_set<std::string>& passthrough_methods() {
  static const std::unordered_set<std::string> m = {
      "view",      "view_as", "reshape", "reshape_as",     "contiguous", "clone",
      "detach",    "to",      "float",   "double",         "half",       "bfloat16",
      "type",      "type_as", "flatten", "squeeze",        "unsqueeze",  "permute",
      "transpose", "t",       "expand",  "expand_as",      "as_strided", "narrow",
      "cuda",      "cpu",     "data",    "requires_grad_", "unflatten",  "movedim"};
  return m;
}

inline const std::unordered_set<std::string>& container_read_methods() {
  static const std::unordered_set<std::string> m = {"pop", "get", "popitem", "popleft", "__getitem__", "setdefault"};
  return m;
}

inline const std::unordered_set<std::string>& container_write_methods() {
  static const std::unordered_set<std::string> m = {"append", "extend",     "update",      "setdefault", "insert",
                                                    "add",    "appendleft", "__setitem__", "put"};
  return m;
}

inline std::string last_component(std::string_view path) {
  size_t dot = path.rfind('.');
  return std::string(dot == std::string_view::npos ? path : path.substr(dot + 1));
}

inline bool class_like(std::string_view path) {
  // Parameters and buffers are tensors: their methods are tensor methods.
  if (path == "torch.nn.Parameter" || path == "torch.nn.parameter.Parameter" || path == "torch.nn.Buffer" ||
      path == "torch.Tensor")
    return false;
  std::string last = last_component(path);
  return !last.empty() && std::isupper(static_cast<unsigned char>(last[0]));
}

inline std::string canonical_dtype(const std::string& path) {
  static const std::unordered_map<std::string, std::string> aliases = {
      {"torch.half", "torch.float16"},    {"torch.float", "torch.float32"}, {"torch.double", "torch.float64"},
      {"torch.long", "torch.int64"},      {"torch.int", "torch.int32"},     {"torch.short", "torch.int16"},
      {"torch.cfloat", "torch.complex64"}};
  auto it = aliases.find(path);
  return it == aliases.end() ? path : it->second;
}

inline bool is_dtype_path(std::string_view path) {
  static const std::unordered_set<std::string> dtypes = {
      "float16",       "float32",     "float64",         "bfloat16",
      "half",          "float",       "double",          "int8",
      "uint8",         "int16",       "int32",           "int64",
      "long",          "int",         "short",           "bool",
      "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz",
      "float8e4nv",    "float8e5",    "float8e4b15",     "float8e4b8",
      "float8e5b16",   "tf32",        "complex64",       "cfloat"};
  if (path.rfind("torch.", 0) != 0 && path.rfind("triton.language.", 0) != 0 && path.rfind("numpy.", 0) != 0)
    return false;
  return dtypes.count(last_component(path)) > 0;
}

// Tensor attributes that are metadata, not elements (x.shape, x.dtype).
inline bool tensor_metadata_attribute(std::string_view a) {
  static const std::unordered_set<std::string_view> names = {
      "shape", "dtype", "device", "ndim", "is_cuda", "layout", "requires_grad", "itemsize", "nbytes", "is_leaf"};
  return names.count(a) > 0;
}

// Tensor methods that read only metadata: sizes, strides and layout tests (x.size(1), x.is_contiguous()).
inline bool tensor_metadata_method(std::string_view m) {
  static const std::unordered_set<std::string_view> names = {
      "size",           "dim",          "ndimension",    "numel",      "nelement",          "stride",
      "storage_offset", "element_size", "is_contiguous", "get_device", "is_floating_point", "is_complex",
      "__len__",        "dim_order"};
  return names.count(m) > 0;
}

// ----- Values: what an expression evaluates to, as far as names go -----

struct Value {
  // Kernel: a compiled kernel handle of a kernel language (kernel_languages.h); calling it launches.
  enum class K {
    Unknown,
    Path,
    Instance,
    Function,
    Class,
    Extension,
    ExtFunction,
    Str,
    List,
    Dict,
    Param,
    Self,
    Tensor,
    Kernel
  };
  K k = K::Unknown;
  std::string path;  // Path/Instance: qualified name; ExtFunction: function name; Param: its name
  int index = -1;    // Function, Class (class table index), Extension, ExtFunction (extension)
  bool dynamic = false;
  bool unresolved = false;
  ReceiverKind receiver = ReceiverKind::None;  // for values reached through an attribute
};

struct Binding {
  TSNode expr{};  // null: bound to something we do not follow (for loops, unpacking, `x += v`)
  int scope = 0;
  TSNode augmented{};  // the `x += v` statement of a null binding made by one
  TSNode unpacked{};   // the right side a null binding was unpacked from (`B, N = x.shape`)
  TSNode iterated{};   // the iterable a for target walks (`for f in (k1, k2):`): it holds the elements
  TSNode entered{};    // the context a with target is bound by (`with Ctx() as f:`): its __enter__ gives f
};

struct Scope {
  int function = -1;  // facts.functions index; -1 for the module scope
  int parent = -1;    // enclosing scope (class bodies are not scopes, as in Python)
  int class_index = -1;
  std::string self_name;
  std::unordered_set<std::string> params;
  std::unordered_map<std::string, TSNode> param_nodes;  // each parameter's node (its annotation, `*args`)
  std::unordered_map<std::string, std::vector<Binding>> bindings;
  std::unordered_map<std::string, std::string> imports;
  std::unordered_map<std::string, int> local_functions;
  std::unordered_map<std::string, int> local_classes;
  std::unordered_set<std::string> globals_declared;
  // Facts of the function's body that the return analysis reads.
  std::unordered_set<std::string> written_names;
};

struct ClassInfo {
  std::string name;
  TSNode node{};
  int scope = 0;  // scope the class statement sits in
  std::vector<TSNode> base_nodes;
  std::unordered_map<std::string, int> methods;  // name -> function index
  std::unordered_map<std::string, std::vector<Binding>> self_attrs;
  // Names bound in the class body (`mm = staticmethod(torch.mm)`, `product = Product()`): what
  // `Cls.name` reads, and a descriptor's object for `self.name`.
  std::unordered_map<std::string, std::vector<Binding>> class_attrs;
  std::vector<TSNode> decorator_nodes;  // @decorators applied to the class
  TSNode metaclass{};                   // the metaclass= keyword's value
};

struct Edge {
  int from = -1;
  int to = -1;
  bool dead = false;
  bool definition = false;  // a def/lambda nested in `from`: reached with it, but not run by it
};

struct GuardFrame {
  Guard guard;
};

// The scope chain lookup of Python (LEGB; class bodies skipped).
struct Found {
  enum class K { None, Param, Self, Function, Class, Import, Binding, Builtin, Global } k = K::None;
  int scope = 0;
  int index = -1;
  std::string path;
  const std::vector<Binding>* bindings = nullptr;
};

// A tensor that the tests around a return found empty (extract_empty.cpp).
struct EmptyTensor {
  std::string name;
  uint32_t since = 0;  // where its size was read: the name must not be rebound from here to its use
};

struct PendingReturn {
  TSNode node;
  int scope;
  Guard guard;
};

struct ReturnFlow {
  std::vector<std::string> origins;
  bool param = false;
  bool written = false;
  bool state = false;
  // Some return path of a helper this value came through hands back stored state that the call did
  // not write (kept apart from `state`, which a write on another path would cancel).
  bool stored = false;
};

class Extractor {
 public:
  Extractor(const SourceFile& file, const ingest::Limits& limits, FactSet& facts, std::vector<Diagnostic>& diags,
            const HarnessChoice& harness, const std::vector<SiblingModule>& siblings)
      : file_(file),
        src_(file.text),
        limits_(limits),
        facts_(facts),
        diags_(diags),
        harness_(harness),
        siblings_(siblings),
        folder_(src_, [this](TSNode id) { return lookup_constant(id); }) {}

  void run(TSNode root);

 private:
  // ===== Pass 1: scopes, functions, classes, bindings, imports; then the harness (extract_scopes.cpp) =====

  void add_function(TSNode def, TSNode name_node, int scope, int class_index, FunctionKind kind,
                    const std::vector<TSNode>& decorators);
  void bind_target(TSNode target, TSNode value, int scope, int class_index);
  // Sets Binding::iterated on the names a for loop's target binds (just bound, to nothing followed).
  void mark_iterated(TSNode target, TSNode iterable, int scope);
  void collect_import(TSNode node, int scope);
  void collect(TSNode node, int scope, int class_index);
  void classify_functions();
  bool is_nn_module(int ci, int depth = 0);
  int module_class_named(const std::string& name);
  int module_function_named(const std::string& name);
  bool defines_own_kernels();
  void choose_harness();
  void find_entries();
  // A module binding of entry class `name` to what a call or lambda makes that is no class of this file.
  bool opaque_entry_class(const std::string& name);
  void module_bindings_of(TSNode node, const std::string& name, bool conditional,
                          std::vector<FactSet::EntryDefinition>& out) const;
  bool is_output_param(const std::string& name, int scope) const;
  void finish_outputs();
  // Entry inputs and whether their data is read (extract_inputs.cpp).
  using ReadVisits = std::set<std::pair<int, std::string>>;
  // The hand-overs to the submission's C++ that name_read met (InputParam::extension_args).
  std::vector<InputParam::ExtensionArg> extension_args_;
  void finish_inputs();
  bool name_read(int fi, const std::string& name, int depth, ReadVisits& seen);
  bool data_use(TSNode id, int fi, int scope, int depth, ReadVisits& seen);
  bool steers_branch_only(TSNode id, int scope);
  TSNode pure_chain_top(TSNode id, int scope, int depth);
  bool pure_over_param(int fi, const std::string& param, int depth);
  std::optional<std::pair<int, std::string>> landing_param(TSNode call, TSNode arg, int scope);
  bool argument_read(TSNode call, TSNode arg, int element, int scope, int depth, ReadVisits& seen);
  bool element_read(int fi, const std::string& list, size_t element, int depth, ReadVisits& seen);
  struct AttributeHooks {
    bool getattr = false;
    bool getattribute = false;
  };
  AttributeHooks attribute_hooks(int ci);  // memoised in attribute_hooks_
  std::unordered_map<int, AttributeHooks> attribute_hooks_;
  size_t identifier_uses(const std::string& name);  // memoised in identifier_uses_
  std::unordered_map<std::string, size_t> identifier_uses_;
  bool param_bound_fresh(int fi, const std::string& name);
  void finish_param_writes();
  void mark_harness_imports();

  // ===== Name resolution (extract_values.cpp; the binding that reaches a use: extract_reaching.cpp) =====

  Found find_name(const std::string& name, int scope) const;
  std::optional<TSNode> lookup_constant(TSNode id) const;
  // The value of a local's bindings: at `use` (in the bindings' own scope), the one that reaches it
  // (reaching_binding); without a use, the last one.
  Value eval_binding(const std::vector<Binding>& bindings, int depth, TSNode use = TSNode{});
  // The binding whose value `use` reads: the last one written before it, unless a loop around the use
  // binds the name again after it, or some binding has no position (a for target): then the last one.
  const Binding& reaching_binding(const std::vector<Binding>& bindings, TSNode use) const;
  // The bindings that may reach `use`: those before it from the last one that runs whenever the use does
  // on (none in a sibling branch of an `if` around the use), or every one (a loop around the use rebinds
  // it later, a binding has no position, none precedes it, or no use is given).
  std::vector<const Binding*> reaching_bindings(const std::vector<Binding>& bindings, TSNode use) const;
  // The bindings written before byte `at` that may reach it (none in a sibling branch of an `if` around
  // it), from `kill` on: the last one that runs whenever `at` does (null when none does, and whatever the
  // name held before still reaches).
  struct Reaching {
    std::vector<const Binding*> before;
    const Binding* kill = nullptr;
  };
  Reaching reaching_at(const std::vector<Binding>& bindings, uint32_t at) const;
  // Whether binding node `n` runs whenever the code at byte `use` does, up to `stop` (or, when null,
  // up to the first statement around `use`): only plain statements, blocks and `with` between, or an
  // if/elif/else that binds one of `bindings` on the straight path of every branch, or a for loop whose
  // body binds it (see loop_body_runs).
  // `anchor`, when given, is set to where the straight path starts: `n`, or the outermost such if.
  // Whether the body of for loop `loop` is taken to run through to `n` (in it) before the loop ends:
  // the loop is not provably empty (range(0), an empty literal) and no break or continue of its own
  // comes before `n`. A loop with a count the gate cannot fold (range(self.num_layers), a module list)
  // is taken to run: an identity left by a zero-trip loop is the runtime stage's to see.
  bool loop_body_runs(TSNode loop, TSNode n) const;
  bool runs_through(const std::vector<Binding>& bindings, TSNode n, TSNode stop, uint32_t use,
                    TSNode* anchor = nullptr) const;
  Value attribute_of(const Value& obj, const std::string& attr, int depth);
  bool derives_from(int derived, int base);
  bool is_autograd_function(int ci);
  std::vector<std::string> class_bases(int ci);
  Value class_member(int ci, const std::string& attr, int depth, ReceiverKind receiver);
  void add_class_attribute(TSNode owner, TSNode name, TSNode value, int scope);  // extract_scopes.cpp
  // Attribute reads that run the file's code: @property getters and __getattr__
  // (extract_attribute_hooks.cpp).
  std::optional<Value> property_value(int fi, int depth);
  std::optional<Value> getattr_value(int ci, const std::string& attr, int depth);
  std::optional<Value> returned_callable(int fi, int depth);
  bool is_enum_class(int ci, int depth);
  std::optional<std::vector<Binding>> enum_member_value(TSNode node, int scope, int depth);
  Truth name_condition(TSNode cond, const std::string& param, const std::string& attr, int scope);
  Truth return_reached(TSNode ret, TSNode body, const std::string& param, const std::string& attr, int scope);
  std::string value_path(const Value& v, TSNode node) const;
  std::optional<FoldedString> fold_in(TSNode expr, int scope);
  TSNode positional_arg(TSNode args, uint32_t index) const;
  TSNode keyword_arg(TSNode args, std::string_view name) const;
  Value eval(TSNode node, int scope, int depth = 0);
  Value eval_call(TSNode node, int scope, int depth);
  Value kernel_element(TSNode container, int scope, int depth);
  Value find_kernel_element(TSNode container, int scope, int depth);
  std::vector<Binding> element_candidates(TSNode container, int scope) const;
  std::vector<int> kernel_functions_in(TSNode container, int scope);
  // The kernels among what a for loop over `iterable` binds (extract_containers.cpp): the elements of a
  // literal, of a name bound to one, through enumerate/zip/reversed/list/tuple/sorted and .values()/.items().
  std::vector<Value> iterated_kernels(TSNode iterable, int scope, int depth);
  // The iterable a for-target name at `use` walks (its binding there), or null.
  TSNode iterated_by(TSNode use, int scope) const;
  // A function of this file that is a kernel (@triton.jit, a DSL kernel).
  bool kernel_function(const Value& v) const {
    return v.k == Value::K::Function && (facts_.functions[v.index].kind == FunctionKind::TritonJit ||
                                         facts_.functions[v.index].kind == FunctionKind::DslKernel);
  }
  // A class-body binding of `attr` on class `ci` (or a base of the file) that holds a callable, and
  // what reading it gives: the callable, or what a descriptor's __get__ returns. Nullopt for none.
  std::optional<Value> class_level(int ci, const std::string& attr, int depth, ReceiverKind receiver);
  // torch.ops.<ns>.<op> of an op this file registers (torch.library.custom_op, register_kernel,
  // impl): the function that implements it, or -1.
  int custom_op_function(const std::string& path);
  void note_library_impls(TSNode n, int depth);
  // A class decorator or metaclass of the entry class that replaces what the harness builds: a call
  // fact with keyword "@replaces-entry" (rule entry-class-replaced).
  void note_entry_class_wrappers();
  // An entry function the harness calls by name (the profile's, a config's, an evaluator's) that the
  // module binds to something other than a function of this file (`custom_kernel = torch.relu`):
  // the code that runs is not the code judged.
  void note_entry_function_bindings();
  void record_module_binding(const std::string& name, const std::string& resolved, TSNode at, const char* kind);
  bool offered_callable(const std::string& name);
  bool library_import(const std::string& target);
  TSNode import_statement_of(const std::string& name) const;
  std::vector<std::string> entry_function_names() const;
  bool follow_entry_rebinding(const std::string& attr, TSNode at);
  // Attributes a subtree rebinds on an object (`obj.attr = v`, `setattr(obj, "attr", v)`; "*" when the
  // name is computed), with the statement that does it; `is_object` says which expressions are the object.
  void rebound_attributes(TSNode n, const std::function<bool(TSNode)>& is_object,
                          std::vector<std::pair<std::string, TSNode>>& out, int depth) const;
  Value returned_kernel(int fi, int depth);
  Value find_returned_kernel(const std::vector<Binding>& returns, int depth);
  bool is_kernel_factory(int fi) const;

  // ===== Extensions (load_inline / load) (extract_extensions.cpp) =====

  int extension_for(TSNode call, int scope);
  // `import name` of a compiled module a sibling C++ file defines: its extension, or -1.
  int sibling_extension(const std::string& import_path);
  std::optional<std::string> fold_source_path(TSNode expr, int scope, int depth);
  std::optional<std::string> file_source(TSNode expr, int scope, int depth);
  void record_kernel_source(TSNode args, const std::string& compiler);
  void link_extension_calls_by_name();

  // ===== Pass 2: facts, with guards (extract_walk.cpp) =====

  Diagnostic input_diag(const std::string& rule, const std::string& message, Span span);
  bool mentions(TSNode node, std::initializer_list<std::string_view> words) const;
  bool script_main_test(TSNode cond) const;
  bool pointer_argument(TSNode node, int scope);
  static bool module_container(const std::string& path);
  static bool callable_carrier(const std::string& path);
  // Module containers (extract_containers.cpp): what a called container holds, resolved after pass 2.
  struct ModuleSink {
    std::vector<int> classes;           // local module classes held (their forward is called)
    std::vector<std::string> children;  // torch modules held
  };
  void container_children(TSNode fn, int scope, ModuleSink& sink);
  void module_elements(TSNode e, int scope, int depth, ModuleSink& sink,
                       std::set<std::tuple<uint32_t, uint32_t, int>>& seen);
  struct ParamPlace {
    int position = -1;
    bool gathered = false;  // `*args`
    TSNode default_value{};
  };
  ParamPlace param_place(int fi, const std::string& name) const;
  std::vector<Binding> param_arguments(int scope, const std::string& name) const;
  Value returned_module(int fi, int depth);
  void finish_containers();
  static bool computed_target(TSNode fn);
  bool stored_state(const ReturnFlow& f, TSNode value, int scope);
  std::optional<std::vector<const Binding*>> param_rebinding(const std::string& name, int scope, uint32_t use) const;
  bool setup_function(int function) const;
  void mark_triton_kernels_without_stores();
  static bool input_generator_name(const std::string& name);
  bool shape_test(TSNode cond) const;
  bool value_statistic_test(TSNode cond, int scope);
  bool impossible_shape(TSNode cond);
  Guard branch_guard(const Guard& outer, TSNode cond, bool when_true, int scope);
  // Empty-input early returns (extract_empty.cpp).
  bool returns_empty(TSNode ret, int scope);
  std::vector<EmptyTensor> empty_on_path(TSNode node, int scope);
  std::vector<EmptyTensor> emptiness(TSNode cond, bool when_true, int scope);
  std::optional<EmptyTensor> size_of(TSNode n, int scope, int depth);
  bool empty_value(TSNode value, const std::vector<EmptyTensor>& empty, uint32_t at, int scope, int depth);
  bool unchanged_between(const std::string& name, uint32_t from, uint32_t to, int scope) const;
  void walk_block(TSNode block, int scope, const Guard& guard);
  int function_index_of(TSNode def) const;
  void enter_function(TSNode def, int outer_scope, const Guard& outer);
  void walk(TSNode node, int scope, const Guard& guard);
  void walk_chain_inside(TSNode node, int scope, const Guard& guard);
  void walk_children(TSNode node, int scope, const Guard& guard);
  void walk_target_parts(TSNode target, int scope, const Guard& guard);
  ReceiverKind root_kind(TSNode expr, int scope);
  ReceiverKind root_kind_depth(TSNode expr, int scope, int depth);
  std::vector<TSNode> alias_sources(TSNode expr) const;
  bool views_itself(const std::vector<const Binding*>& rebound, const std::string& name) const;
  std::optional<TSNode> view_source(TSNode expr) const;
  bool still_param(TSNode expr, int scope);
  std::string root_name(TSNode expr) const;
  void note_written(int scope, TSNode expr);
  void add_cast(const std::string& dtype, const char* via, TSNode node, int scope, const Guard& guard);
  void note_environment(TSNode args, int scope);  // os.environ.setdefault / os.putenv of TRITON_F32_DEFAULT
  void finish_dot_defaults();

  // ===== Arithmetic operators as tensor ops (extract_arith.cpp) =====

  // Whether an expression is a full tensor: Yes, No (a number, a shape, one element), or Unknown.
  enum class TensorKind { No, Yes, Unknown };
  TensorKind tensor_kind(TSNode expr, int scope, int depth);  // judge_tensor_kind, kept per node at depth 0
  TensorKind judge_tensor_kind(TSNode expr, int scope, int depth);
  TensorKind bindings_kind(const std::vector<const Binding*>& bindings, int depth);
  TensorKind param_kind(int scope, const std::string& name) const;
  // A parameter of an entry function that the task says holds one element (HarnessChoice::one_element_names).
  bool one_element_param(int scope, const std::string& name) const;
  bool host_value(TSNode e, int scope, int depth);
  bool host_operands(TSNode call, int scope, int depth = 0);
  bool readback_operand(TSNode e, int scope, int depth = 0);
  bool host_data_operands(TSNode call, int scope);
  TensorKind annotated_kind(TSNode annotation) const;
  void record_binary_operator(TSNode node, int scope, const Guard& guard);
  void record_augmented_operator(TSNode node, int scope, const Guard& guard);
  void record_unary_operator(TSNode node, int scope, const Guard& guard);
  void record_operator_function(TSNode node, const std::string& resolved, int scope, const Guard& guard);
  // `x is self._kept` (or `is not`, or a module global): an input compared by identity with state.
  void record_identity_comparison(TSNode node, int scope, const Guard& guard);
  std::string comparison_operator(TSNode cond) const;  // "is", "is not", "==" of a two-operand comparison
  void record_tensor_operator(TSNode node, int scope, const Guard& guard, const std::string& resolved, TSNode receiver);
  // Operators in a function of the file that is no entry, with an operand the walk could not type
  // (`def scale(t): return t * 2.0`): judged again once every call site is known, with such a
  // function's parameters typed from the arguments the file passes it (helper_param_kind).
  struct PendingOperator {
    TSNode node;
    int scope;
    Guard guard;
    std::string resolved;  // the operator function's path (operator.add); empty for `a * b`, `-a`, `a += b`
  };
  std::vector<PendingOperator> pending_operators_;
  bool helper_params_typed_ = false;  // while finish_helper_operators runs
  void pend_operator(TSNode node, int scope, const Guard& guard, const std::string& resolved = {});
  TensorKind helper_param_kind(int scope, const std::string& name, int depth);
  TensorKind elements_kind(TSNode seq, int scope, int depth);
  // Functions of the file handed to map() or functools.reduce(), by function: their parameters take the
  // elements of the sequences passed beside them (map(f, xs, ys): f's second parameter an element of ys).
  struct ElementSite {
    TSNode args;  // the carrier call's arguments
    int scope;
    bool reduce;  // reduce(f, xs[, init]): both parameters take xs's elements (the first also init)
  };
  std::unordered_map<int, std::vector<ElementSite>> element_sites_;
  void note_element_sites(TSNode call, const std::string& resolved, int scope);
  void finish_helper_operators();
  bool kernel_body(int scope) const;

  void record_container_mutation(TSNode obj, int scope);
  void record_assignment(TSNode node, int scope, const Guard& guard, bool augmented);
  void record_module_binding(TSNode target, TSNode value);
  void record_name_ref(TSNode node, int scope, const Guard& guard);
  void record_identifier_ref(TSNode node, int scope, const Guard& guard);
  void record_string(TSNode node, int scope);
  void record_imports(TSNode node, int scope);
  void record_class(TSNode node, int scope);
  void record_handler(TSNode clause, int scope, const Guard& guard, uint32_t try_begin, uint32_t try_end);
  void add_edge(int from, int to, bool dead) { edges_.push_back(Edge{from, to, dead}); }
  // An edge no harness follows: under a dead guard, or in an `if __name__ == "__main__"` block.
  static bool edge_dead(const Guard& g) { return g.dead() || g.script_main; }
  int fn_of(int scope) const { return scopes_[scope].function; }

  // ===== Pass 2: calls and launches (extract_calls.cpp) =====

  void record_call(TSNode node, int scope, const Guard& guard);
  bool grid_is_empty(TSNode grid, int scope);
  // A launch of a kernel-language kernel or handle (Dsl), or of an extension function (Extension).
  void record_launch(TSNode node, LaunchKind kind, const std::string& kernel, int kernel_function, int scope,
                     const Guard& guard);
  std::vector<bool> maybe_inputs(TSNode args, int scope);
  void mark_args_written(TSNode args, int scope, bool launch = false);
  void mark_written_deep(int scope, TSNode expr, int depth, bool launch);
  void note_launch_arguments(TSNode args);

  // ===== After pass 2 (extract_flow.cpp) =====

  void compute_reachability();
  void merge(ReturnFlow& into, const ReturnFlow& from);
  bool is_module_container(const std::string& name) const;
  ReturnFlow flow(TSNode expr, int scope, int depth, std::unordered_set<std::string>& visiting);
  ReturnFlow function_summary(int fi, int depth);
  void finish_returns();
  bool number_constant(TSNode e) const;
  void finish_handlers();
  void finish_globals();
  bool only_launch_uses(int scope, const std::string& name) const;

  // ===== CUDA graphs (extract_graphs.cpp) =====

  bool is_input_name(TSNode node, int scope, int depth = 0) const;
  int identity_polarity(TSNode cond, int scope, std::vector<uint32_t>& keys);
  bool identifies_input(TSNode expr, int scope, int depth, std::vector<uint32_t>& keys);
  bool refreshes_graph_inputs(TSNode statement, int scope, std::vector<std::string>& copied_into);
  bool graph_replay_refreshed(TSNode call, int scope, std::vector<uint32_t>& keys,
                              std::vector<std::string>& copied_into);
  bool capture_runs_own_work(TSNode capture_call, int scope);
  static bool graph_replay_call(const Call& c);
  void note_graph_call(TSNode node, int scope, Call& c);
  void finish_graphs();
  void finish_graph_launches();
  bool fresh_copy_after_replay(TSNode ret, TSNode value) const;
  bool captured_mentions(const std::string& name) const;
  void finish_launch_arguments();
  void decide_format();

  const SourceFile& file_;
  std::string_view src_;
  const ingest::Limits& limits_;
  FactSet& facts_;
  std::vector<Diagnostic>& diags_;
  const HarnessChoice& harness_;
  const std::vector<SiblingModule>& siblings_;
  std::unordered_map<std::string, int> extension_by_sibling_;  // module name -> extension index
  const HarnessProfile* profile_ = nullptr;
  std::vector<std::pair<int, std::string>> output_params_;  // (entry function, parameter) the profile names outputs
  std::vector<std::pair<uint32_t, uint32_t>> launch_arg_ranges_;  // byte ranges of launch argument lists
  // Lists filled in place (NAME.append(...)), and the lists a launch's arguments are built from.
  struct ContainerFill {
    int scope;
    std::string name;
    uint32_t begin, end;  // the byte range of the fill's argument list
    TSNode args;
    bool dead;  // under a dead guard
  };
  std::vector<ContainerFill> container_fills_;
  // self.<attr>.append(...) and the like, by class and attribute: what a container attribute gathers.
  struct AttrFill {
    int class_index;
    std::string attr;
    TSNode args;
    int scope;
    bool dead;
  };
  std::vector<AttrFill> attr_fills_;
  // Calls of this file's functions, by callee: where a parameter's value comes from.
  struct CallSite {
    TSNode args;
    int scope;
    bool through_attribute;  // obj.method(...): a method's `self` is not among the arguments
    int leading = 0;         // positional arguments before the function's own (functools.partial's function)
  };
  std::unordered_map<int, std::vector<CallSite>> call_sites_;
  // Calls of module containers, resolved once every fill is known (finish_containers).
  struct PendingContainer {
    size_t call;  // facts_.calls index of the container's call
    TSNode fn;
    int scope;
    Guard guard;
    uint32_t start;
  };
  std::vector<PendingContainer> pending_containers_;
  // Calls whose target is computed ([torch.relu][0](x), table[key](x), pick()(x)) or a parameter
  // (`def apply(f, x): return f(x)`), resolved once every call site is known (finish_computed_callees).
  struct PendingCallee {
    PendingContainer at;
    // The target is a name or attribute (a parameter, a local bound to a container's element): when
    // nothing it may hold is found it is no finding (a harness's argument, a loop over modules).
    bool parameter = false;
  };
  std::vector<PendingCallee> pending_callees_;
  // Values stored into a container by subscript (`self.cache[key] = make_launcher(...)`), by the
  // container's key (container_key): what a call of one of its elements may run.
  std::unordered_map<std::string, std::vector<Binding>> subscript_fills_;
  std::string container_key(TSNode container, int scope);
  // What a computed call target may hold: library functions (paths), functions of this file, and
  // whether something else the gate knows (a kernel, a class, a module) or nothing it can name.
  struct CallableSink {
    std::vector<std::string> paths;
    std::vector<std::string> modules;  // library modules held as values (calling one is an instance call)
    std::vector<int> functions;
    bool known = false;
  };
  std::vector<Binding> constructor_keywords(TSNode object, const std::string& attr, int scope, bool* dynamic = nullptr);
  bool has_dict_splat(TSNode args) const;
  bool dict_entries(TSNode dict, int scope, const std::string& key, std::vector<Binding>& out);
  int namedtuple_field(TSNode type, const std::string& attr, int scope);
  std::vector<std::string> record_fields(int ci);
  std::optional<Value> built_attribute(TSNode node, const Value& obj, const std::string& attr, int scope, int depth);
  std::optional<std::vector<Binding>> type_namespace(TSNode object, const std::string& attr, int scope);
  Value class_body_method(TSNode node, TSNode name);
  std::optional<Value> decorator_set_attribute(int ci, const std::string& attr, int depth);
  static bool namedtuple_maker(const std::string& path) {
    return path == "collections.namedtuple" || path == "typing.NamedTuple";
  }
  void decorated_callees(int fi, int scope, const Guard& guard, std::vector<std::string>& paths);
  void registered_callees(int fi, TSNode args, bool bound, int scope, const Guard& guard,
                          std::vector<std::string>& paths);
  std::vector<int> registered_by_decorator(int fi);
  bool dispatches(int fi);
  Value held_callee(const Binding& b, int scope, const Guard& guard, std::vector<std::string>& paths, int self_fn = -1);
  void other_reaching_callees(TSNode fn, int scope, const Value& callee, const Guard& guard,
                              std::vector<std::string>& paths, std::vector<std::string>& modules);
  void callable_elements(TSNode e, int scope, int depth, CallableSink& sink,
                         std::set<std::tuple<uint32_t, uint32_t, int>>& seen);
  void finish_computed_callees();
  std::unordered_map<int, Value> returned_modules_;             // memo of returned_module
  std::vector<std::pair<int, std::string>> launch_containers_;  // (scope, name)
  std::unordered_set<uint32_t> graph_keys_;  // byte offsets of identity calls that key a refreshed replay
  std::unordered_map<uint32_t, std::vector<std::string>> copy_in_replays_;  // replay -> buffers copied into
  struct CaptureInfo {
    std::string owner;         // the class of the capturing function ("": module functions)
    uint32_t begin, end;       // the byte range of the `with torch.cuda.graph(...)` body
    std::vector<int> helpers;  // functions of this file called in the body
  };
  std::vector<CaptureInfo> captures_;
  std::vector<uint32_t> refreshed_replays_;                                 // byte offsets of refreshed replays
  TSNode root_{};                                                           // the module, for scans of its scope
  std::unordered_map<std::string, std::vector<Binding>> element_bindings_;  // container text -> stored values
  std::unordered_map<int, std::vector<Binding>> return_exprs_;              // function -> returned expressions
  std::unordered_map<int, std::vector<Binding>> yield_exprs_;               // function -> yielded expressions
  // `f.attr = v` and setattr(f, "attr", v) on a function of the file: function -> attribute -> values.
  std::unordered_map<int, std::unordered_map<std::string, std::vector<Binding>>> function_attrs_;
  std::unordered_map<int, std::vector<Binding>> registered_;  // act.register(T, g): function -> g
  // `cls.attr = v` on a parameter of a function (a class decorator's): function -> "cls.attr" -> values.
  std::unordered_map<int, std::unordered_map<std::string, std::vector<Binding>>> param_attrs_;
  std::unordered_map<std::string, Value> kernel_elements_;  // memo of kernel_element
  std::unordered_map<int, Value> returned_kernels_;         // memo of returned_kernel
  std::unordered_map<std::string, std::string> libraries_;  // `lib = torch.library.Library("ns", ...)`: lib -> ns
  std::optional<std::unordered_map<std::string, int>> custom_ops_;  // "torch.ops.ns.op" -> function
  ConstFolder folder_;

  std::vector<Scope> scopes_;
  std::vector<ClassInfo> classes_;
  std::vector<TSNode> function_nodes_;                // by function index
  std::vector<int> function_scope_;                   // by function index
  std::vector<std::vector<TSNode>> decorator_nodes_;  // by function index
  std::vector<Edge> edges_;
  std::unordered_map<uint64_t, int> extension_by_call_;
  std::vector<PendingReturn> returns_;
  std::unordered_map<int, ReturnFlow> summaries_;
  std::unordered_set<std::string> mutated_names_;  // containers filled in place somewhere in the file
  std::vector<uint32_t> call_start_, launch_start_;
  std::vector<Guard> name_guards_, cast_guards_, handler_guards_;
  // tl.dot calls that leave input_precision to Triton's default, and the functions that name it on some
  // tl.dot (a kernel that picks "ieee" for fp32 and the default for narrower dtypes); TRITON_F32_DEFAULT
  // as the module sets it.
  struct DotDefault {
    TSNode node;
    int scope;
    Guard guard;
  };
  std::vector<DotDefault> dot_defaults_;
  // Where each Triton kernel of the file is launched: its arguments (extract_dot_operands.cpp).
  struct TritonLaunchSite {
    int kernel;
    TSNode args;
    int scope;
  };
  std::vector<TritonLaunchSite> triton_launch_sites_;
  // Whether both operands of a default-precision tl.dot hold integers of at most 8 bits, exact in TF32:
  // each is a load (through .to()) from a pointer parameter of the kernel that every launch of it in the
  // file hands an entry parameter whose task dtype is int8, uint8 or bool (HarnessChoice::param_dtypes).
  bool dot_operands_narrow(const DotDefault& d);
  bool operand_loads(TSNode e, int scope, int depth, std::vector<int>& params);
  int pointer_param(TSNode p, int scope, int depth);
  bool launches_hand_narrow(int kernel, int param);
  std::unordered_set<int> dot_precision_said_;
  std::string triton_f32_default_;
  std::vector<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>> handler_ranges_;
  // Module-level state changed from a function: name, function, and whether what it stores there is a
  // compiled kernel (a compile cache keeps no result).
  struct GlobalMutation {
    std::string name;
    int function;
    bool stores_kernel = false;
  };
  std::vector<GlobalMutation> global_mutations_;
  // bindings_kind's assumptions while it runs, by binding set (its first binding and its size).
  std::map<std::pair<const Binding*, size_t>, TensorKind> tensor_assumed_;
  // tensor_kind's answers for whole expressions (depth 0, no assumption in force), by node: a chain
  // `a * b + c` asks its operators' parents again.
  std::map<std::tuple<uint32_t, uint32_t, TSSymbol>, TensorKind> tensor_kinds_;
  int current_scope_ = 0;
  int model_class_ = -1;
  // Module-level, unconditional rebindings of an entry method to a function of this file
  // (`Model.__call__ = Model.forward`, `ModelNew.forward = fast`): the statements' start bytes (their
  // writes are AttributeWrite::entry_rebinding) and the functions followed as entries instead.
  std::unordered_set<uint32_t> entry_rebinding_at_;
  std::unordered_set<int> rebound_entries_;
  std::map<std::string, int> rebound_methods_;  // entry method -> the function rebound to it last
  uint32_t embedded_count_ = 0;
  bool too_many_reported_ = false;
};

}  // namespace kgate::python::detail
