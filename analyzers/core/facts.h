// The fact model: engine-neutral facts that analyzers extract and rules read.
//
// Analyzers (python/, cuda/) never report findings. They fill a FactSet; the rule engine turns facts
// into findings. Every field a rule may name is listed in facts.cpp's field tables, and only there:
// the rule schema's field names are checked against them (`kgate rules --validate`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "analyzers/core/diagnostic.h"
#include "analyzers/core/source.h"

namespace kgate {

enum class Language { Python, Triton, Cuda, Cpp };
std::string_view to_string(Language language);

// DslKernel: a kernel written in a Python kernel language other than Triton (TileLang, CuTe DSL,
// cuTile, Numba CUDA, CuPy, ...); Function.decorators names the decorator that made it one.
enum class FunctionKind { Python, TritonJit, CudaGlobal, CudaDevice, Host, Lambda, ModuleBody, DslKernel };
std::string_view to_string(FunctionKind kind);
// A kernel the submission defines: a CUDA __global__, a @triton.jit or a kernel-language kernel.
inline bool is_kernel(FunctionKind kind) {
  return kind == FunctionKind::CudaGlobal || kind == FunctionKind::TritonJit || kind == FunctionKind::DslKernel;
}

// Why a statement might not execute, or executes only on some paths.
struct Guard {
  bool constant_false = false;    // under a condition that folds to false (if False, if 0, if DEBUG...)
  bool after_return = false;      // after an unconditional return/raise in the same block
  bool impossible_shape = false;  // under a shape test that can never hold (x.shape[0] < 0, ...)
  bool training = false;          // under `if self.training` / `if not self.training`
  bool shape_test = false;        // under a test of shape, size, dtype or device
  bool in_try = false;            // in a try body
  bool in_except = false;         // in an except handler
  bool side_stream = false;       // inside `with torch.cuda.stream(...)` or similar
  bool script_main = false;       // under `if __name__ == "__main__"`: runs as a script, never under a harness
  bool value_statistic = false;   // under a test of tensor values' statistics (x.abs().amax() < t, isfinite(x).all())
  bool dead() const { return constant_false || after_return || impossible_shape; }
};

// Maintainability metrics of one function or one module (computed by analyzers/metrics/; the counting
// rules are docs/metrics.md). `measured` is false where no metrics engine saw the code.
struct CodeMetrics {
  bool measured = false;
  int64_t cyclomatic = 0;          // McCabe
  int64_t operators_distinct = 0;  // Halstead n1
  int64_t operands_distinct = 0;   // Halstead n2
  int64_t operators_total = 0;     // Halstead N1
  int64_t operands_total = 0;      // Halstead N2
  double halstead_volume = 0;      // (N1 + N2) * log2(n1 + n2)
  double halstead_difficulty = 0;  // n1 / 2 * N2 / n2
  double halstead_effort = 0;      // difficulty * volume
  int64_t sloc = 0;                // source lines of code
  int64_t lloc = 0;                // logical lines of code
  int64_t comment_lines = 0;
  double mi_original = 0;    // 171 - 5.2 ln V - 0.23 CC - 16.2 ln LLOC
  double mi_normalized = 0;  // max(0, original * 100 / 171)
  double mi_comments = 0;    // normalised, with the comment term, clamped to [0, 100]
  // Which counter measured it: "tree-sitter-python", "tree-sitter-cuda" or "clang" (a static string).
  std::string_view counted_by;
};

// One analysed text: the host file, or a C++/CUDA string embedded in it, or a file named by load().
struct Module {
  Language language = Language::Python;
  std::string role;     // "host", "cpp_sources", "cuda_sources", "load-file"
  std::string text;     // decoded text
  SourceMap map;        // empty for the host file: offsets are host offsets already
  Span span;            // where the embedded text sits in the host file
  int extension = -1;   // index into FactSet::extensions for embedded sources
  CodeMetrics metrics;  // of this text as a whole (for the host: the whole file)
  // Only while a C++ engine runs on the sources load_inline joins into this module's text
  // (cuda::extract_facts): each joined module and the offset where its text starts here. Empty otherwise.
  std::vector<std::pair<int, uint32_t>> joined;

  // A byte range [begin, end) of this module's text, in host coordinates (through the source map
  // when the module is embedded).
  Span host_span(const SourceFile& host, uint32_t begin, uint32_t end) const;
};

struct Function {
  std::string name;        // "forward"
  std::string qualname;    // "ModelNew.forward", "add_kernel", "ModelNew.forward.<lambda>"
  std::string class_name;  // enclosing class, if a method
  FunctionKind kind = FunctionKind::Python;
  std::vector<std::string> decorators;  // resolved: "triton.jit", "triton.autotune"
  std::vector<std::string> params;
  // C++: per parameter, whether it is a pointer to const (`const float* A`, `float const* A`): the
  // function declares that it only reads through it (an output-argument entry's inputs).
  std::vector<bool> params_const;
  int module = 0;
  int parent = -1;                  // enclosing function, for nested defs and lambdas
  Span span;                        // the name (or `lambda` keyword)
  bool reachable = false;           // reachable from the entry point (ModelNew.forward)
  bool executed_at_import = false;  // module body, or called from it / from __init__
  // An input generator the harness calls for its own inputs (get_inputs, get_init_inputs, GPU MODE's
  // generate_input, kernelbench.com's init_state), or nested in one: set-up, never the computation.
  bool input_generator = false;
  CodeMetrics metrics;
};

// Output: a parameter that the harness profile names as an output the entry must write (the
// output-argument harness's `output`), which is no input: writing it is the entry's job.
enum class ReceiverKind { None, Module, Value, Param, Self, Literal, Output };
std::string_view to_string(ReceiverKind kind);

struct Call {
  std::string callee;                          // as written: "t.mm", "getattr(torch, 'mat'+'mul')"
  std::string resolved;                        // fully qualified: "torch.mm", "torch.Tensor.sum", "operator.matmul"
  std::string method;                          // last name component: "mm", "sum"
  ReceiverKind receiver = ReceiverKind::None;  // what the callee hangs off
  bool dynamic_name = false;                   // the name was built at run time and folded (getattr + concat, __dict__)
  bool unresolved_dynamic = false;             // a run-time name that could not be folded
  bool instance_call = false;                  // calling an object bound to a constructor call (self.fc = nn.Linear())
  bool local_target = false;                   // resolves to a function or class defined in this file
  bool launch_argument = false;  // sits in the argument list of a kernel launch (x.data_ptr() handed to a kernel)
  // CUDA graphs: a replay that reads this call's inputs (guarded by the input's identity, right after
  // its capture, or after a copy of the inputs into its static buffers); a capture of the submission's
  // own work; a constructor in a file whose every capture and replay is so.
  bool graph_refreshed = false;
  bool graph_key = false;  // an identity call (x.data_ptr(), id(x)) that keys a refreshed replay
  // Arithmetic whose tensor operands each hold one element (a loss the kernel summed, divided by N):
  // glue, not compute. Python: a torch call on a tensor made from host values, every operand a host
  // value (torch.prod(torch.tensor(self.normalized_shape))).
  bool scalar_operands = false;
  // A host library's call (numpy, scipy) with an operand read back from a device tensor (x.cpu(),
  // x.numpy(), x.tolist(), or a name bound to such): the host computes on the task's data.
  bool host_data = false;
  // The function of this file a wrapper call hands on (torch.compile(f), functools.partial(f, ...)).
  int wrapped_function = -1;
  // A method of the module's own state (self.weight.data_ptr(), or of a local bound to it): a key on
  // parameters or buffers, which the harness never passes again as new inputs.
  bool state_receiver = false;
  // Writes into a parameter of its function through an argument: out=x, or a functional in-place
  // form whose first argument is one (torch.relu_(x), torch.nn.functional.relu(x, inplace=True)).
  bool writes_param = false;
  // C++: the enclosing function's parameter (by position) that the call is made on (a method's
  // receiver) or writes (the destination of cudaMemset/cudaMemcpy); -1 for none.
  int param_index = -1;
  // C++: what the Python calls that reach the function pass as that parameter (cuda::link, from
  // Launch::arg_maybe_input): "input" when one of them may pass an input of the harness, "made" when
  // every one passes a tensor the caller made or its module state; empty when unknown (no Python
  // caller, or arguments that cannot be mapped).
  std::string param_source;
  std::vector<std::string> string_args;  // folded constant string arguments
  int positional_args = 0;               // how many positional arguments are written (Python calls)
  // C++: a plain call of a function that the file's harness defines for its reference or checker
  // (HarnessProfile::reference_functions), not one the file defines itself.
  bool harness_reference = false;
  // Python: the harness's reference beside the file (reference.py) makes the same call, written the
  // same way, in a function of the same name (a constructor seeding as the reference's does, so the
  // weights match): behaviour the task itself has, not the submission's.
  bool mirrors_reference = false;
  std::vector<std::string> keywords;        // keyword argument names
  std::vector<std::string> keyword_values;  // resolved keyword values, same order ("torch.float16")
  int function = -1;                        // enclosing function
  int module = 0;
  bool reachable = false;  // enclosing function reachable and the call not under a dead guard
  Guard guard;
  Span span;
};

// Dsl: a call of a kernel-language kernel or of its compiled handle (numba kernel[grid](...), a CuTe
// DSL cute.compile result, a CuPy RawKernel, a TileLang compiled function, an NVRTC cuLaunchKernel).
enum class LaunchKind { Triton, Extension, CudaChevron, CudaApi, Dsl };
std::string_view to_string(LaunchKind kind);

struct Launch {
  LaunchKind kind = LaunchKind::Triton;
  std::string kernel;        // Triton: the jit function's qualname; Extension: "ext.fn"
  int kernel_function = -1;  // index of the kernel's Function when it is known
  std::string grid;          // grid expression as written
  bool grid_empty = false;   // provably zero blocks
  int function = -1;
  int module = 0;
  bool reachable = false;
  Guard guard;
  Span span;
  // Extension calls: for each positional argument, whether it may be an input the harness passed (a
  // parameter of the calling function, or a view of one); false for tensors the function made, module
  // state and constants. Empty when the arguments could not be mapped (unpacking, keywords).
  std::vector<bool> arg_maybe_input;
};

struct Import {
  std::string module;    // "torch.nn.functional"
  std::string name;      // imported name for `from m import name`, else empty
  std::string alias;     // the local binding
  bool dynamic = false;  // importlib.import_module / __import__
  // The harness profile provides this module for submissions to import (GPU MODE's task), or keeps
  // the reference or the checker in it (reference, eval, utils): rules/harnesses imports.
  bool harness_allowed = false;
  bool harness_forbidden = false;
  // A module neither a known library nor a file beside the submission (nor a bundle's sidecar): the
  // submission's own helper that is not here, so what its functions do cannot be followed.
  bool missing = false;
  int function = -1;
  Span span;
};

enum class WriteKind { Attribute, Subscript, Setattr, Global };
std::string_view to_string(WriteKind kind);

struct AttributeWrite {
  std::string target;     // as written
  std::string resolved;   // "torch.cuda.Event.elapsed_time", "self.cache[]", "sys.modules[].N"
  std::string attribute;  // the last attribute name, if any
  WriteKind kind = WriteKind::Attribute;
  ReceiverKind root = ReceiverKind::None;  // Module: an imported module; Param; Self; Value
  bool dynamic_name = false;
  bool augmented = false;      // +=, -=, ...
  bool stores_kernel = false;  // the value is a compiled kernel or extension handle (lazy compilation)
  // Rebinds a method of the entry class to a function of this file, at module level and unconditionally
  // (`Model.__call__ = Model.forward`): the gate follows that function as the entry instead.
  bool entry_rebinding = false;
  int function = -1;
  bool reachable = false;
  Guard guard;
  Span span;
};

// A read of a dotted name that is not called: sys.argv, os.environ, frame.f_back.
struct NameRef {
  std::string resolved;
  int function = -1;
  bool reachable = false;
  bool state_receiver = false;  // an attribute of the module's own state (self.weight._version)
  Span span;
};

// Module-level mutable state, or C++ static/global state holding tensors or pointers.
struct GlobalState {
  std::string name;
  std::string kind;                 // "list", "dict", "set", "tensor", "pointer", "object"
  bool mutated_in_forward = false;  // written from a reachable function
  int module = 0;
  Span span;
};

struct ExceptHandler {
  std::vector<std::string> catches;  // resolved exception types; empty for a bare except
  int function = -1;
  bool reachable = false;
  bool try_has_launch = false;
  bool handler_has_torch_call = false;
  Span span;
};

struct ClassDef {
  std::string name;
  std::vector<std::string> bases;  // resolved
  std::vector<std::string> methods;
  bool body_only_pass = false;
  bool alias = false;  // `ModelNew = Model`: a binding, not a class statement
  Span span;
};

struct Cast {
  std::string to_dtype;  // resolved: "torch.float16", "tl.bfloat16", "__float2half"
  // "method", "keyword", "function", "type", "flag", "flag-off", "input_precision", "dot-default"
  // (Triton's TF32 default), "wmma-accumulator", "wmma-operand", "mma-atom-accumulator",
  // "mma-atom-operand", "ptx-mma", "ptx-cvt"
  std::string via;
  int function = -1;
  int module = 0;
  bool reachable = false;
  // Set-up, not computation: in an input generator (get_inputs, get_init_inputs, generate_input), an
  // __init__, an `if __name__ == "__main__"` block, or a conversion of a literal (__float2half(0.0f)).
  bool setup = false;
  Span span;
};

// The task's dtype contract (docs/dtype-contract.md): the lowest floating precision the task itself
// computes at, and where that was read. Empty dtype: unknown (no task, reference, config or harness
// default said), so precision findings are warnings.
struct DtypeContract {
  std::string dtype;   // "fp32", "bf16", "fp16", "fp8_e4m3", ... (analyzers/core/dtype_rank.h)
  std::string source;  // "--contract", "task Softmax", "reference.py", ".kgate.yaml", "harness kernelbench"
  bool known() const { return !dtype.empty(); }
};

// A value returned from a reachable function.
struct Return {
  int function = -1;
  std::vector<std::string> origins;  // resolved calls the value came from ("torch.empty_like")
  bool returns_param = false;        // a parameter, or a view/cast/clone of one
  bool written = false;              // the returned buffer was passed to a launch or written
  bool from_state = false;           // read from self.*, a module global, or a container in one
  bool reachable = false;
  // The value is empty whenever this return runs: a tensor that the tests around it found empty
  // (`if x.numel() == 0: return x.clone()`), a view or clone of it, or a *_like allocation of it.
  bool returns_empty = false;
  // A tuple or list written out in the return (`return a, b`, `return [x, n]`): its element count, and
  // how many of the elements are number constants (`n`, `0.5`, a module's `dim = 300`); -1 and 0 for
  // any other value.
  int elements = -1;
  int number_elements = 0;
  Span span;
  // C++: the returned local's only hand-overs, whole, to functions (callee, argument position), when
  // nothing else writes it. cuda::link counts the buffer as written unless each callee is a function
  // of the file that leaves that parameter unread ("param-unread:<i>"), and then clears the list.
  std::vector<std::pair<std::string, size_t>> handed;
};

// An output parameter of a harness entry (rules/harnesses `entry.outputs`): solve(input, output, n)
// must write `output`. written: it is passed to a launch, an extension or a local helper, used as
// `out=`, written element-wise, or changed by an in-place method, somewhere in the entry function.
struct OutputParam {
  std::string name;
  int function = -1;
  bool written = false;
  bool reachable = false;
  Span span;  // the entry function's name
};

// A tensor input of a harness entry (forward's parameters after self; an entry function's parameters
// annotated torch.Tensor), with no default and not an output. read: some use of it, or of a name bound
// to it, takes its data: anything but its metadata (x.shape, x.size(), x.dtype, x.device, len(x)), a
// shape assertion (assert_size_stride), `del`, or a parameter of a helper of this file that does not
// read it in turn. An entry whose output never depends on an input's values computes something else.
struct InputParam {
  std::string name;
  int function = -1;
  bool read = false;
  bool reachable = false;
  Span span;  // the parameter
  // Where the input is handed to the submission's C++ (`ext.fn(x)`): the call's span and the
  // positional argument. Such a use is a read unless every one lands in a parameter that the C++
  // function does not read (its "param-unread:<i>" decorator; cuda::link decides, and fills
  // `unread_in` with "ext.fn (C++ parameter w)" for the message).
  struct ExtensionArg {
    Span call;
    int position = -1;
  };
  std::vector<ExtensionArg> extension_args;
  bool read_elsewhere = false;  // a read that is not such a hand-over (or one that could not be mapped)
  std::string unread_in;
};

struct StringConst {
  std::string value;
  int function = -1;
  Span span;
};

// A load_inline / load call: the compiled extension and what it exports.
struct Extension {
  std::string binding;                 // variable the module is bound to ("fused", "self.ext")
  std::string name;                    // name= argument
  std::string loader;                  // "torch.utils.cpp_extension.load_inline"
  std::vector<std::string> functions;  // functions=[...]
  // Sibling files that hold sources: load(sources=[...]), or load_inline sources read from a file.
  // A leading kSubmissionDir stands for the submission's directory (the pipeline reads them).
  std::vector<std::string> source_files;
  bool sources_unresolved = false;  // a source argument could not be folded to text
  // Macros defined on the command line of each translation unit: "-DNAME=VALUE" in extra_cflags (the
  // C++ sources) and extra_cuda_cflags (the CUDA sources), kept as "NAME=VALUE" or "NAME".
  std::vector<std::string> cpp_defines, cuda_defines;
  Span span;
};

enum class SubmissionFormat {
  Unknown,
  KernelBenchCuda,
  KernelBenchTriton,
  KernelBenchPython,
  Task,
  PythonOther,
  RawCuda
};
std::string_view to_string(SubmissionFormat format);

// The directory of the submission in a folded path (`Path(__file__).parent / "k.cu"`).
inline constexpr std::string_view kSubmissionDir = "\x01submission-dir";

struct FactSet {
  SubmissionFormat format = SubmissionFormat::Unknown;
  std::string engine = "tree-sitter-python";
  std::vector<Module> modules;  // modules[0] is the host file
  std::vector<Function> functions;
  std::vector<Call> calls;
  std::vector<Launch> launches;
  std::vector<Import> imports;
  std::vector<AttributeWrite> writes;
  std::vector<NameRef> names;
  std::vector<GlobalState> globals;
  std::vector<ExceptHandler> handlers;
  std::vector<ClassDef> classes;
  std::vector<Cast> casts;
  std::vector<Return> returns;
  std::vector<StringConst> strings;
  std::vector<Extension> extensions;
  std::vector<OutputParam> outputs;
  std::vector<InputParam> inputs;
  int entry = -1;            // the harness's main entry (ModelNew.forward, custom_kernel, solve)
  std::vector<int> entries;  // every entry point (forward, __call__, entry functions)
  // Every module-level binding of the entry's name (class or def statements, assignments), in source
  // order, when there is more than one: `conditional` ones sit in an if, try, with or loop, so which
  // one Python binds, and the harness gets, depends on the run (entry-defined-conditionally).
  struct EntryDefinition {
    std::string name;
    bool conditional = false;
    Span span;
  };
  std::vector<EntryDefinition> entry_definitions;
  // The harness profile that applied (rules/harnesses), empty when none recognised the file; and
  // whether the profile names this file as its own reference (reference.py, task.py).
  std::string harness;
  std::string harness_without_entry = "unjudged";  // the profile's verdict when its entry is missing
  std::string harness_entry;  // what the profile enters through, for messages ("ModelNew.forward", "custom_kernel")
  bool harness_reference = false;
  // Where the entry's output parameters come from, for a harness that hands the entry its outputs
  // (output-argument): "task" (--task: LeetGPU's get_solve_signature, a manifest), "names" (only the
  // profile's output names: out, output, *_out, ...; another parameter the entry writes may be an output
  // too); empty for harnesses whose entry returns its outputs.
  std::string output_contract;
  DtypeContract contract;  // set by the pipeline before the rules run
  // C++ roots by name, for a raw C++ file whose harness names entry functions (GPU MODE's
  // custom_kernel); empty: exported and tensor-taking host functions are the roots.
  std::vector<std::string> cpp_entry_functions;
  // The kernels (CUDA __global__, @triton.jit, kernel-language kernels) that the Python modules beside
  // the file define, where its entry calls into them (pipeline/imported_modules): the submission's own
  // kernels too, which the runtime must tell from library kernels in its CUPTI trace.
  std::vector<std::string> imported_kernels;

  std::string function_name(int index) const {
    return index >= 0 && index < static_cast<int>(functions.size()) ? functions[index].qualname : "<module>";
  }
};

// ----- Generic field access for the rule engine -----

using FieldValue = std::variant<std::monostate, bool, int64_t, double, std::string, std::vector<std::string>>;

enum class FactKind {
  Call,
  Launch,
  Import,
  Write,
  Name,
  Global,
  Handler,
  Class,
  Cast,
  Return,
  String,
  Function,
  Extension,
  Module,
  Output,
  Input
};
std::optional<FactKind> parse_fact_kind(std::string_view name);
std::string_view to_string(FactKind kind);

// The metric fields of function and module facts, by name, in the field tables' order (the JSON
// reports and `kgate metrics` print these; rules match them with above/below thresholds).
std::vector<std::pair<std::string_view, FieldValue>> metric_fields(const CodeMetrics& metrics);

// Names of the fields a rule may use on facts of this kind (for validation and docs).
const std::vector<std::string>& field_names(FactKind kind);
size_t fact_count(const FactSet& facts, FactKind kind);
FieldValue fact_field(const FactSet& facts, FactKind kind, size_t index, std::string_view field);
Span fact_span(const FactSet& facts, FactKind kind, size_t index);
// The language of the module a fact sits in, for kinds that record one (the `language` field),
// without building the field's string: the engine filters every fact of every rule on it.
std::optional<Language> fact_language(const FactSet& facts, FactKind kind, size_t index);

}  // namespace kgate
