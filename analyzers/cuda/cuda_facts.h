// CUDA C++ facts: kernels, launches, resolved calls, static state and casts from embedded
// load_inline sources and raw .cu/.cpp files, plus the cross-language launch proof (link).
//
// Two engines fill the same facts. Clang LibTooling (analyzers/cuda/clang, the optional component
// `kgate_clang`) parses in CUDA host mode against the shim headers in analyzers/cuda/shims and
// resolves names through macros, `using`, namespace aliases, templates and `##` pasting. The
// tree-sitter-cuda engine (analyzers/cuda/treesitter, always built) is the fallback: it sees the
// same constructs syntactically, and its use is reported as `engine-fallback`.
//
// How the optional Clang engine is wired (no static initialisers, no weak symbols): kgate_static
// holds one function pointer, empty by default. kgate_clang exports `kgate::cuda::clang_init()`
// (analyzers/cuda/clang/clang_engine.h), which stores its engine there; whoever builds with the
// component (the CLI, the tests, the benchmarks) calls clang_init() once at start-up. The compile
// definition KGATE_HAVE_CLANG is public on kgate_clang so callers can guard that call.
#pragma once

#include <string>
#include <vector>

#include "analyzers/core/diagnostic.h"
#include "analyzers/core/facts.h"
#include "analyzers/core/source.h"

namespace kgate::cuda {

struct CudaOptions {
  // Directory holding compile_commands.json (`kgate check -p build/`). When set and the file being
  // analysed has an entry, Clang parses with that entry's flags (nvcc flags rewritten) and the real
  // headers instead of the shims. Embedded sources always use the shims.
  std::string compile_commands;
  // Shim headers; empty: default_shim_dir() (analyzers/core/data_dir.h).
  std::string shim_dir;
  // Build and reuse a precompiled header of the shims (in cache_dir, or the system temp dir).
  bool use_pch = true;
  std::string cache_dir;
  // Forces the tree-sitter engine (tests, and `--engine tree-sitter`).
  bool force_tree_sitter = false;
};

// ---- Conventions of the C++ facts (rules rely on these) ----
// Function.qualname: fully qualified C++ name ("fused_forward", "ns::kernel"); kind CudaGlobal /
//   CudaDevice / Host. Function.decorators carries C++ facts that have no field of their own:
//     "no-pointer-write"  a __global__ kernel whose body never writes through a pointer parameter
//     "export:<name>"     bound to Python as <name> (PYBIND11_MODULE m.def, TORCH_LIBRARY m.def/impl)
//     "tensor-entry"      a host function taking a torch::Tensor / at::Tensor (raw-repository roots)
//     "param-unread:<i>"  a host function whose tensor parameter i is used for metadata only (x.size(0),
//                         x.options(), at::empty_like(x), CHECK_* macros that only inspect): its data is
//                         never read (InputParam::extension_args, cpp-input-never-read); also
//                         added by cuda::link when every use of it is a hand-over that reads nothing
//     "param-handed:<i>:<j>:<callee>"  tensor parameter i is otherwise unread and handed whole to
//                         callee as its argument j (helper(x)); cuda::link follows it (greatest fixpoint)
//     "template"          a function template (facts come from the uninstantiated pattern)
//     "overrides:<name>"  a method overriding the virtual <name>: a call of <name> reaches it too
//     "ptx-*"             what the PTX witness read in the compiled kernel (analyzers/ptx/witness.h)
// Call.resolved: the fully qualified callee ("at::matmul", "at::Tensor::to", "cublasSgemm_v2",
//   "std::thread::thread" for constructions of std::thread). Names Clang could not resolve keep
//   their spelling with qualifiers ("cublasGemmEx", "mylib::gemm"). Call.callee is the text as
//   written at the call site (the macro invocation when the name came from a macro); a name formed
//   by `##` gets dynamic_name=true and " [token-pasted]" appended to callee.
// Calls through values (Clang engine): a function named as a value (`&at::matmul` in a table, an
//   argument, a std::function) is a call there, with keyword "@as-value"; a call through a variable
//   of namespace or class scope is a call of each function its initializer names or its lambdas
//   call ("@via:<variable>"), or, when the initializer shows none, a call with unresolved_dynamic
//   set and resolved = the variable; an operator looked up in c10::Dispatcher by a literal schema is
//   a call of it ("at::bmm", "@dispatcher"); a declaration bound to a symbol by an asm label
//   resolves to the demangled symbol.
// Call.keywords (C++ has no keyword arguments) lists the named constants passed as arguments
//   ("cudaStreamNonBlocking", "cudaEventDisableTiming", "CUBLAS_TF32_TENSOR_OP_MATH") and shape
//   markers starting with '@': "@in-loop" (the call sits in a loop), "@loop-varying" (Clang, memsets:
//   in a loop, and its first argument reads a variable the loop changes, or a call's result), "@int-to-pointer"
//   (an argument is an integer cast to a pointer). Call.string_args: string-literal arguments.
// Cast.to_dtype: "torch.float16", "torch.bfloat16", "torch.float8_e4m3fn", "torch.float8_e5m2",
//   "tf32"; via "function" (__float2half), "type" (conversion to __half), "method" (.to(kHalf),
//   .half()), "flag" (cublasSetMathMode TF32, setAllowTF32CuBLAS).
// Launch: kind cuda-chevron (<<<>>>) or cuda-api (cudaLaunchKernel[Ex], cuLaunchKernel[Ex],
//   cudaLaunchCooperativeKernel); kernel = the kernel's qualified name; grid = the grid text;
//   grid_empty when a grid dimension folds to 0.
// Module roles: embedded sources keep the role the Python extractor gave them; a raw file is
//   module 0 (role "host", language cuda for .cu/.cuh, cpp otherwise).

// True when the Clang engine has been registered (clang_init() was called).
bool clang_available();

// Fills facts for every module of language Cuda/Cpp in `facts` (embedded strings) or, when
// `facts.modules` is empty or module 0 is itself C++ (a raw file), for the host file as module 0.
// Spans are in host-file coordinates. Uses Clang when available and it produces an AST, else the
// tree-sitter engine, adding one `engine-fallback` warning per module that fell back.
void extract_facts(const SourceFile& host, FactSet& facts, std::vector<Diagnostic>& diagnostics,
                   const CudaOptions& options);

// Marks C++ functions, calls, launches, casts and returns reachable. Roots: Python launches of
// kind extension ("<ext>.<fn>" -> the C++ function `fn`, or the one exported as `fn`, among that
// extension's modules; the launch's kernel_function is set to it); in raw-repository mode (no
// Python host), functions decorated "tensor-entry" or "export:*". Reachability propagates through
// the C++ call graph and through live launches; a fact under a dead guard is not reachable.
void link(FactSet& facts);

// Extension launches whose C++ function does not exist in the extension's sources (after link):
// indices into facts.launches. broken_links() starts from these; the `extension-function-missing`
// check reports the broken links.
std::vector<int> missing_extension_functions(const FactSet& facts);

// The cross-language proof, one verdict per reachable extension launch (after link): the first
// broken link of Python `mod.fn(...)` -> C++ `fn` -> a live launch -> a kernel that writes memory.
// kind: "function-missing" (no C++ function `fn`), "no-live-launch" (fn reaches no launch that can
// run: none, dead, or zero grid), "kernel-writes-nothing" (every kernel it launches writes no
// pointer parameter). Extensions whose sources could not be read are not judged.
struct BrokenLink {
  int launch = -1;  // index into facts.launches (the Python extension launch)
  std::string kind;
  std::string message;  // names the link that broke
  Span span;            // the Python call
};
std::vector<BrokenLink> broken_links(const FactSet& facts);

// ---- Engine registration (see the header comment) ----
// Runs the Clang engine on one module. Returns false when Clang produced no usable AST (the
// caller then falls back and reports `why`); `facts` must be left untouched in that case.
using ClangEngineFn = bool (*)(const SourceFile& host, FactSet& facts, int module, const CudaOptions& options,
                               std::string& why);
void register_clang_engine(ClangEngineFn engine);

// The tree-sitter engine on one module (always available; used directly by tests).
void extract_module_tree_sitter(const SourceFile& host, FactSet& facts, int module);

}  // namespace kgate::cuda
