// The PTX witness: what device_only_text keeps for NVRTC, what scan_ptx reads from PTX, the witness on a
// raw CUDA file (the decorators and Cast facts where NVRTC is built in; the note where it is not), and
// its NVRTC helper process failing (a crash, a compilation past the time limit, no helper at all).
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "analyzers/core/budget.h"
#include "analyzers/core/facts.h"
#include "analyzers/cuda/cuda_facts.h"
#include "analyzers/ptx/device_text.h"
#include "analyzers/ptx/ptx_scan.h"
#include "analyzers/ptx/witness.h"

namespace kgate::ptx {
namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(DeviceText, KeepsKernelsAndBlanksHostCodeInPlace) {
  const std::string source = R"(#include <torch/extension.h>
#include <cuda_fp16.h>
#include <vector>
#define BLOCK 256
namespace tt = torch;
using tt::empty_like;
__constant__ float weights[4];
static std::vector<int> sizes;
__device__ float twice(float x) { return 2.f * x; }
__global__ void k(float* y, const float* x, int n) { int i = threadIdx.x; if (i < n) y[i] = twice(x[i]); }
torch::Tensor run(torch::Tensor x) {
  auto y = empty_like(x);
  k<<<1, BLOCK>>>(y.data_ptr<float>(), x.data_ptr<float>(), x.numel());
  return y;
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("run", &run); }
)";
  const DeviceText device = device_only_text(source);
  ASSERT_EQ(device.text.size(), source.size());
  EXPECT_EQ(std::count(device.text.begin(), device.text.end(), '\n'), std::count(source.begin(), source.end(), '\n'));
  for (const char* kept : {"#include <cuda_fp16.h>", "#define BLOCK 256", "__constant__ float weights[4];",
                           "__device__ float twice", "__global__ void k(float* y"})
    EXPECT_TRUE(has(device.text, kept)) << kept;
  for (const char* gone :
       {"torch/extension.h", "<vector>", "namespace tt", "using tt::", "std::vector", "run(", "PYBIND11_MODULE"})
    EXPECT_FALSE(has(device.text, gone)) << gone;
  EXPECT_EQ(device.blanked_functions, 2);
}

TEST(DeviceText, TemplateKernelsLaunchedWithArgumentsAreInstantiated) {
  const std::string source = R"(#define KERNEL __global__
template <typename scalar_t, int kBlock>
KERNEL void scale(scalar_t* y, int n) { if (threadIdx.x < n) y[threadIdx.x] *= 2; }
void launch(float* y, int n) {
  AT_DISPATCH_FLOATING_TYPES(t, "scale", [&] { scale<scalar_t, 128><<<1, 128>>>(y, n); });
  scale<double, 64><<<1, 64>>>((double*)y, n);
}
)";
  const DeviceText device = device_only_text(source);
  EXPECT_EQ(device.name_expressions, (std::vector<std::string>{"scale<float, 128>", "scale<double, 64>"}));
  // A kernel whose qualifier comes from a macro is kept.
  EXPECT_TRUE(has(device.text, "KERNEL void scale"));
  EXPECT_FALSE(has(device.text, "void launch"));
}

// LeetGPU's entry: `extern "C"` host functions and prototypes go with their linkage, so that NVRTC
// sees no bare `extern "C"`; a kernel with C linkage stays.
TEST(DeviceText, ExternCHostFunctionsGoWithTheirLinkage) {
  const std::string source = R"(#include <cuda_runtime.h>
extern "C" __global__ void k(const float* a, float* c, int n) { if (threadIdx.x < n) c[threadIdx.x] = a[threadIdx.x]; }
extern "C" void helper(int n);
extern "C" void solve(const float* a, float* c, int n) {
  k<<<1, 256>>>(a, c, n);
}
)";
  const DeviceText device = device_only_text(source);
  ASSERT_EQ(device.text.size(), source.size());
  EXPECT_TRUE(has(device.text, R"(extern "C" __global__ void k()"));
  for (const char* gone : {"void helper", "void solve", "k<<<"}) EXPECT_FALSE(has(device.text, gone)) << gone;
  EXPECT_EQ(std::count(device.text.begin(), device.text.end(), '"'), 2) << device.text;
  EXPECT_EQ(device.blanked_functions, 1);
}

TEST(DeviceText, DeviceHeadersOnly) {
  EXPECT_TRUE(is_device_header("cuda_bf16.h"));
  EXPECT_TRUE(is_device_header("mma.h"));
  EXPECT_TRUE(is_device_header("cuda/pipeline"));
  EXPECT_TRUE(is_device_header("cooperative_groups/reduce.h"));
  EXPECT_FALSE(is_device_header("torch/extension.h"));
  EXPECT_FALSE(is_device_header("ATen/cuda/CUDAContext.h"));
  EXPECT_FALSE(is_device_header("cuda_runtime.h"));
  EXPECT_FALSE(is_device_header("vector"));
}

const char* kPtx = R"(
.extern .func  (.param .b32 func_retval0) _Z11vendor_geluf
(
	.param .b32 _Z11vendor_geluf_param_0
)
;
.extern .func  (.param .b32 func_retval0) vprintf
(
	.param .b64 vprintf_param_0,
	.param .b64 vprintf_param_1
)
;
.visible .entry _Z6storesPfPKfi(
	.param .u64 _Z6storesPfPKfi_param_0
)
{
	.reg .f32 	%f<3>;
	cvta.to.global.u64 	%rd4, %rd1;
	@%p1 bra 	$L__BB0_2;
	st.global.f32 	[%rd7], %f2;
$L__BB0_2:
	ret;

}
.visible .entry _Z4copyILb0EEvPfPKfi(
	.param .u64 _Z4copyILb0EEvPfPKfi_param_0
)
{
	.shared .align 4 .b8 _ZZ4copyILb0EEvPfPKfiE4tile[1024];
	st.shared.f32 	[%r1], %f1;
	atom.shared.add.f32 	%f2, [%r1], %f1;
	{ // callseq 0, 0
	.param .b64 param0;
	call.uni (retval0), 
	vprintf, 
	(
	param0
	);
	} // callseq 0
	ret;

}
.visible .entry vendor(
	.param .u64 vendor_param_0
)
{
	{ // callseq 1, 0
	call.uni (retval0), 
	_Z11vendor_geluf, 
	(
	param0
	);
	} // callseq 1
	{ cvt.rn.f16.f32 %rs1, %f1;}
	mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%r1, %r2}, {%r3, %r4, %r5, %r6}, {%r7, %r8}, {%r9, %r10};
	@!%p2 red.global.add.f32 	[%rd3], %f4;
	ret;

}
)";

TEST(PtxScan, StoresCallsAccumulatorsAndConversionsPerKernel) {
  const std::vector<PtxKernel> kernels = scan_ptx(kPtx);
  ASSERT_EQ(kernels.size(), 3u);
  EXPECT_EQ(kernels[0].name, "stores");
  EXPECT_TRUE(kernels[0].stores);
  // Shared-memory stores and atomics write no output; printf is CUDA's own.
  EXPECT_EQ(kernels[1].name, "copy");
  EXPECT_FALSE(kernels[1].stores);
  EXPECT_TRUE(kernels[1].calls.empty());
  EXPECT_TRUE(kernels[1].external_calls.empty());
  EXPECT_EQ(kernels[2].name, "vendor");  // extern "C": not mangled
  EXPECT_TRUE(kernels[2].stores);        // a predicated reduction into global memory
  EXPECT_EQ(kernels[2].external_calls, std::vector<std::string>{"vendor_gelu"});
  EXPECT_EQ(kernels[2].mma_accumulators, std::vector<std::string>{"f16"});
  EXPECT_EQ(kernels[2].narrowing_conversions, std::vector<std::string>{"f16"});
}

TEST(PtxScan, BulkCopiesIntoGlobalMemoryAreStores) {
  const std::vector<PtxKernel> kernels = scan_ptx(R"(
.visible .entry tma(.param .u64 p)
{
	cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd1, {%r1, %r2}], [%r3];
	ret;
}
.visible .entry loads(.param .u64 p)
{
	cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 128, [%r2];
	cp.async.ca.shared.global [%r1], [%rd1], 16;
	ret;
}
)");
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_TRUE(kernels[0].stores);
  EXPECT_FALSE(kernels[1].stores);
}

TEST(PtxScan, SourceNames) {
  EXPECT_EQ(source_name("_Z1kPf"), "k");
  EXPECT_EQ(source_name("_ZN2ns6kernelEPfi"), "ns::kernel");
  EXPECT_EQ(source_name("_Z4copyILb0EEvPfPKfi"), "copy");
  EXPECT_EQ(source_name("relu_kernel"), "relu_kernel");
}

// A raw .cu file's facts (the tree-sitter engine), linked, then the witness over them.
void witness_raw_file(const SourceFile& file, FactSet& facts, std::vector<Diagnostic>& diagnostics) {
  cuda::CudaOptions options;
  options.force_tree_sitter = true;
  cuda::extract_facts(file, facts, diagnostics, options);
  cuda::link(facts);
  witness(file, facts, diagnostics);
}

// The witness on a raw .cu file. With NVRTC: the decorators and the Cast facts of what the PTX shows.
// Without: no PTX facts, and the note that says the cross-check did not run.
TEST(Witness, RawFile) {
  const SourceFile file("k.cu", R"(#include <torch/extension.h>
#define HALF_ACC 1
__global__ void dead(float* y, const float* x, unsigned n) {
  unsigned i = threadIdx.x;
  if (i < n && i > n) y[i] = x[i];
}
__global__ void narrow(float* y, const float* x, int n) {
  int i = threadIdx.x;
#if HALF_ACC
  if (i < n) y[i] = __half2float(__float2half_rn(x[i] * 3.f));
#endif
}
torch::Tensor run(torch::Tensor x) {
  auto y = torch::empty_like(x);
  dead<<<1, 32>>>(y.data_ptr<float>(), x.data_ptr<float>(), 32);
  narrow<<<1, 32>>>(y.data_ptr<float>(), x.data_ptr<float>(), 32);
  return y;
}
)");
  FactSet facts;
  std::vector<Diagnostic> diagnostics;
  witness_raw_file(file, facts, diagnostics);
  const auto function = [&](const std::string& name) -> const Function& {
    for (const Function& f : facts.functions)
      if (f.name == name) return f;
    ADD_FAILURE() << "no function " << name;
    return facts.functions.front();
  };
  const auto decorated = [&](const std::string& name, const std::string& decorator) {
    const auto& d = function(name).decorators;
    return std::find(d.begin(), d.end(), decorator) != d.end();
  };
  const bool noted = std::any_of(diagnostics.begin(), diagnostics.end(),
                                 [](const Diagnostic& d) { return d.rule == "ptx-witness-not-run"; });
  if (witness_built()) {
    EXPECT_FALSE(noted);
    EXPECT_TRUE(decorated("dead", "ptx-stores-nothing"));
    EXPECT_TRUE(decorated("narrow", "ptx-compiled"));
    EXPECT_FALSE(decorated("narrow", "ptx-stores-nothing"));
    // __float2half_rn is a conversion the source reading names too; the PTX adds none of its own there.
    const auto ptx_casts = std::count_if(facts.casts.begin(), facts.casts.end(),
                                         [](const Cast& c) { return c.via.rfind("ptx-", 0) == 0; });
    const auto source_casts = facts.casts.size() - static_cast<size_t>(ptx_casts);
    EXPECT_EQ(ptx_casts, source_casts > 0 ? 0 : 1);
  } else {
    EXPECT_TRUE(noted);
    EXPECT_FALSE(decorated("dead", "ptx-compiled"));
  }
}

// The witness on one template kernel, with KGATE_NVRTC_HELPER naming `helper` (a script standing in for
// kgate-nvrtc) and a fresh cache directory, on a new thread (each analysing thread has its own helper
// process) under a budget of `max_ms` CPU ms. Returns the notes' messages; `overrun` the budget's state.
std::vector<std::string> witness_with_helper(const std::string& helper_script, uint32_t max_ms,
                                             BudgetOverrun* overrun = nullptr) {
  char dir_template[] = "/tmp/kgate-ptx-test-XXXXXX";
  const std::filesystem::path dir = ::mkdtemp(dir_template);
  const std::filesystem::path helper = dir / "fake-nvrtc";
  if (!helper_script.empty()) {
    std::ofstream(helper) << "#!/bin/sh\n" << helper_script << "\n";
    ::chmod(helper.c_str(), 0700);
  }
  ::setenv("KGATE_NVRTC_HELPER", helper.c_str(), 1);
  ::setenv("KGATE_CACHE_DIR", (dir / "cache").c_str(), 1);
  const SourceFile file("k.cu", R"(template <typename T>
__global__ void copy(const T* x, T* y) { y[threadIdx.x] = x[threadIdx.x]; }
void run(const float* x, float* y) { copy<float><<<1, 32>>>(x, y); }
)");
  std::vector<std::string> notes;
  std::thread([&] {
    FileBudget budget(max_ms, 0);
    FactSet facts;
    std::vector<Diagnostic> diagnostics;
    witness_raw_file(file, facts, diagnostics);
    for (const Diagnostic& d : diagnostics)
      if (d.rule == "ptx-witness-not-run") notes.push_back(d.message);
    if (overrun) *overrun = budget.overrun();
  }).join();
  ::unsetenv("KGATE_NVRTC_HELPER");
  ::unsetenv("KGATE_CACHE_DIR");
  std::filesystem::remove_all(dir);
  return notes;
}

// NVRTC crashing on a source (the fuzzer found one that segfaults NVRTC 13.0) ends the helper, not the
// analysis: the module gets a note that names the signal, and nothing is cached for it.
TEST(Witness, NvrtcCrashIsANote) {
  const auto notes = witness_with_helper("kill -SEGV $$", 0);
  ASSERT_EQ(notes.size(), 1u);
  if (witness_built()) {
    EXPECT_TRUE(has(notes[0], "NVRTC crashed")) << notes[0];
    EXPECT_TRUE(has(notes[0], "signal 11")) << notes[0];
  } else {
    EXPECT_TRUE(has(notes[0], "built without")) << notes[0];
  }
}

// A compilation that runs past the file's time limit is killed, and its CPU time spends the budget (the
// pipeline then reports input-too-slow): no note, since the file is not judged at all.
TEST(Witness, NvrtcPastTheTimeLimitIsStopped) {
  BudgetOverrun overrun = BudgetOverrun::None;
  const auto notes = witness_with_helper("while :; do :; done", 300, &overrun);
  if (witness_built()) {
    EXPECT_TRUE(notes.empty()) << notes.front();
    EXPECT_EQ(overrun, BudgetOverrun::Time);
  } else {
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_TRUE(has(notes[0], "built without")) << notes[0];
  }
}

// No helper where it should be: a note with the path, never a crash or a compilation in kgate itself.
TEST(Witness, MissingHelperIsANote) {
  const auto notes = witness_with_helper("", 0);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_TRUE(has(notes[0], witness_built() ? "kgate-nvrtc could not be started" : "built without")) << notes[0];
}

}  // namespace
}  // namespace kgate::ptx
