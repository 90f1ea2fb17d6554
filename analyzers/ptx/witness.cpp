// The PTX witness (witness.h): NVRTC compiles each CUDA module's device code in a child process
// (nvrtc_child.h); ptx_scan reads the PTX.
#include "analyzers/ptx/witness.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/core/budget.h"
#include "analyzers/core/cache_dir.h"
#include "analyzers/core/content_hash.h"
#include "analyzers/core/file_text.h"
#include "analyzers/cuda/cuda_common.h"

#include "analyzers/ptx/device_text.h"
#include "analyzers/ptx/nvrtc_child.h"
#include "analyzers/ptx/ptx_scan.h"

#ifndef KGATE_HAVE_NVRTC
#define KGATE_HAVE_NVRTC 0
#endif

namespace kgate::ptx {
namespace {

// What NVRTC sees before the source: the fixed-width integers, limits and infinities a kernel takes from
// host headers (<cstdint>, <cfloat>, <cmath>), which device_only_text blanks with the rest. A source
// that names std:: also gets libcu++'s <cuda/std/...> as std (about 40 ms more of NVRTC's time).
constexpr const char* kPrelude = R"(#pragma once
typedef signed char int8_t; typedef unsigned char uint8_t; typedef short int16_t; typedef unsigned short uint16_t;
typedef int int32_t; typedef unsigned int uint32_t; typedef long long int64_t; typedef unsigned long long uint64_t;
typedef long long intptr_t; typedef unsigned long long uintptr_t;
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
#ifndef NAN
#define NAN __int_as_float(0x7fffffff)
#endif
#ifndef FLT_MAX
#define FLT_MAX 3.402823466e+38F
#endif
#ifndef FLT_MIN
#define FLT_MIN 1.175494351e-38F
#endif
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#ifndef assert
#define assert(e) ((void)0)
#endif
)";
constexpr const char* kStdPrelude = R"(#include <cuda/std/cstdint>
#include <cuda/std/limits>
#include <cuda/std/type_traits>
#include <cuda/std/utility>
namespace std { using namespace cuda::std; }
)";

void note(const SourceFile& host, const Module& module, std::vector<Diagnostic>& diagnostics, std::string why) {
  Diagnostic d;
  d.rule = "ptx-witness-not-run";
  d.severity = Severity::Note;
  d.message = "the PTX cross-check did not run on this " +
              std::string(module.role == "host" ? "file" : "embedded source") + ": " + std::move(why);
  d.path = host.path;
  d.span = module.span.valid() ? module.span : host.span(0, 0);
  d.engine = "nvrtc";
  diagnostics.push_back(std::move(d));
}

#if KGATE_HAVE_NVRTC
std::string torch_dtype(const std::string& ptx_type) {
  if (ptx_type == "f16") return "torch.float16";
  if (ptx_type == "bf16") return "torch.bfloat16";
  if (ptx_type == "tf32") return "tf32";
  if (ptx_type == "e4m3") return "torch.float8_e4m3fn";
  if (ptx_type == "e5m2") return "torch.float8_e5m2";
  if (ptx_type == "e2m1" || ptx_type == "e3m2" || ptx_type == "e2m3") return "fp4";
  return {};
}

// The kernel's Function: a __global__ of the module with the PTX entry's name (qualified or not), else
// of any C++ module of the submission.
int kernel_function(const FactSet& facts, int module, const std::string& name) {
  int fallback = -1;
  for (size_t i = 0; i < facts.functions.size(); ++i) {
    const Function& f = facts.functions[i];
    if (f.kind != FunctionKind::CudaGlobal) continue;
    if (f.qualname != name && f.name != cuda::last_component(name)) continue;
    if (f.module == module) return static_cast<int>(i);
    if (fallback < 0) fallback = static_cast<int>(i);
  }
  return fallback;
}

// The largest source the witness compiles: far above any submission (a KernelBench or GPU MODE
// solution is a few kB with a handful of kernels), far below what would hold a run for minutes.
constexpr size_t kMaxSourceBytes = 512 * 1024;
constexpr long kMaxKernels = 256;

// The PTX of a CUDA module's device code, from the cache directory where an earlier run made it (keyed
// by NVRTC's version, the prelude and the device text: the inputs of the compilation, not the reading of
// its output, so a new kgate reads the same PTX afresh).
NvrtcOutcome compile_cached(const DeviceText& device, const std::vector<std::string>& defines) {
  const bool names_std = device.text.find("std::") != std::string::npos;
  std::string prelude = std::string(kPrelude) + (names_std ? kStdPrelude : "");
  for (const std::string& d : defines) prelude += cuda::define_line(d);  // -D from extra_cuda_cflags
  // torch/extension.h brings CUDA's half, bfloat16 and fp8 types with it; without it, their headers do.
  const auto names = [&](const char* word) { return device.text.find(word) != std::string::npos; };
  if (names("half") || names("__hadd") || names("__float2half")) prelude += "#include <cuda_fp16.h>\n";
  if (names("bfloat16") || names("__float2bfloat16")) prelude += "#include <cuda_bf16.h>\n";
  if (names("__nv_fp8")) prelude += "#include <cuda_fp8.h>\n";
  // NVRTC's version and library as the build found them: a cache hit loads no NVRTC.
  std::string key = std::string("kgate-ptx-1\n") + KGATE_NVRTC_VERSION + "\n" + KGATE_NVRTC_LIBRARY + "\n" + prelude +
                    "\n" + device.text;
  for (const auto& e : device.name_expressions) key += "\n" + e;
  const std::filesystem::path dir = default_cache_dir() / "ptx";
  const std::filesystem::path entry = dir / (sha256_hex(key) + ".ptx");
  if (private_directory(dir)) {
    if (std::optional<std::string> text = read_file_text(entry)) {
      const bool ok = text->rfind("ok\n", 0) == 0;
      return {ok ? NvrtcOutcome::Kind::Compiled : NvrtcOutcome::Kind::Failed, text->substr(text->find('\n') + 1)};
    }
  }
  NvrtcJob job{prelude, device.text, device.name_expressions};
  NvrtcOutcome made = compile_in_child(job);
  // Names the host launches with may not instantiate (or may crash NVRTC): the kernels alone, once more.
  if ((made.kind == NvrtcOutcome::Kind::Failed || made.kind == NvrtcOutcome::Kind::Crashed) &&
      !job.name_expressions.empty()) {
    job.name_expressions.clear();
    made = compile_in_child(job);
  }
  // What NVRTC made of the source, kept; a crash, a stop or a missing helper says nothing of the source.
  const bool answered = made.kind == NvrtcOutcome::Kind::Compiled || made.kind == NvrtcOutcome::Kind::Failed;
  if (answered && make_private_directory(dir))
    write_atomically(entry, (made.kind == NvrtcOutcome::Kind::Compiled ? "ok\n" : "failed\n") + made.text);
  return made;
}

void record(const std::vector<PtxKernel>& kernels, int module, FactSet& facts) {
  for (const PtxKernel& k : kernels) {
    const int index = kernel_function(facts, module, k.name);
    if (index < 0) continue;
    Function& f = facts.functions[index];
    const auto mark = [&f](const char* decorator) {
      if (std::find(f.decorators.begin(), f.decorators.end(), decorator) == f.decorators.end())
        f.decorators.push_back(decorator);
    };
    mark("ptx-compiled");
    // A template kernel compiles once per instantiation: it stores nothing only if none of them does.
    if (!k.stores && k.calls.empty() && k.external_calls.empty()) {
      bool any_store = false;
      for (const PtxKernel& other : kernels)
        any_store = any_store || (other.name == k.name && (other.stores || !other.calls.empty()));
      if (!any_store) mark("ptx-stores-nothing");
    }
    // A device function that another CUDA source of the submission defines is its own code (separate
    // compilation across load(sources=[...]) files), not an outside library.
    const bool external = std::any_of(k.external_calls.begin(), k.external_calls.end(), [&](const std::string& callee) {
      return std::none_of(facts.functions.begin(), facts.functions.end(), [&](const Function& g) {
        return (g.kind == FunctionKind::CudaDevice || g.kind == FunctionKind::CudaGlobal) &&
               (g.qualname == callee || g.name == cuda::last_component(callee));
      });
    });
    if (external) mark("ptx-external-call");
    const auto cast = [&](const std::string& ptx_type, const char* via) {
      const std::string dtype = torch_dtype(ptx_type);
      if (dtype.empty()) return;
      // Only what the source reading did not see: a conversion it found already is no contradiction. An
      // mma's accumulator is seen only as one (a WMMA fragment's or CuTe atom's), not as an operand.
      const bool accumulator = std::string_view(via) == "ptx-mma";
      for (const Cast& c : facts.casts)
        if (c.function == index && c.to_dtype == dtype &&
            (!accumulator || c.via == "wmma-accumulator" || c.via == "mma-atom-accumulator"))
          return;
      Cast c;
      c.to_dtype = dtype;
      c.via = via;
      c.function = index;
      c.module = f.module;
      c.reachable = f.reachable;
      c.span = f.span;
      facts.casts.push_back(std::move(c));
    };
    for (const auto& acc : k.mma_accumulators) cast(acc, "ptx-mma");
    for (const auto& to : k.narrowing_conversions) cast(to, "ptx-cvt");
  }
}

#endif

}  // namespace

bool witness_built() { return KGATE_HAVE_NVRTC != 0; }

void witness(const SourceFile& host, FactSet& facts, std::vector<Diagnostic>& diagnostics) {
  for (size_t i = 0; i < facts.modules.size(); ++i) {
    const Module& module = facts.modules[i];
    if (module.language != Language::Cuda) continue;
    const std::string& text = module.role == "host" ? host.text : module.text;
#if KGATE_HAVE_NVRTC
    // NVRTC cannot be stopped mid-compile: nothing starts once the file's limits are spent (the pipeline
    // reports that), and a source far beyond any submission's size is not compiled at all.
    if (budget_exhausted()) return;
    const auto kernels = std::count_if(facts.functions.begin(), facts.functions.end(), [&](const Function& f) {
      return f.kind == FunctionKind::CudaGlobal && f.module == static_cast<int>(i);
    });
    if (text.size() > kMaxSourceBytes || kernels > kMaxKernels) {
      note(host, module, diagnostics,
           "the source is too large for it (" + std::to_string(text.size()) + " bytes, " + std::to_string(kernels) +
               " kernels; the witness compiles up to " + std::to_string(kMaxSourceBytes) + " bytes and " +
               std::to_string(kMaxKernels) + " kernels)");
      continue;
    }
    const NvrtcOutcome compiled = compile_cached(device_only_text(text), cuda::command_line_defines(facts, module));
    if (compiled.kind == NvrtcOutcome::Kind::OverTime) return;  // the budget is spent: the pipeline says so
    if (compiled.kind != NvrtcOutcome::Kind::Compiled) {
      note(host, module, diagnostics, compiled.text);
      continue;
    }
    record(scan_ptx(compiled.text), static_cast<int>(i), facts);
#else
    (void)text;
    note(host, module, diagnostics, "this binary was built without the CUDA toolkit's NVRTC (KGATE_WITH_NVRTC)");
#endif
  }
}

}  // namespace kgate::ptx
