// The GPU-run verdicts drawn from measurements (runtime/gpu_evidence.h), the trace's wire format, the
// timing JSON, and the exec guard's program check: everything of runtime stage II that needs no GPU.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "runtime/exec_guard.h"
#include "runtime/gpu_evidence.h"

namespace kgate::runtime {
namespace {

TimedCall call(double synced_us, double stream_us) {
  TimedCall c;
  c.synced_s = synced_us * 1e-6;
  c.stream_s = stream_us * 1e-6;
  c.wall_s = c.synced_s + 20e-6;
  return c;
}

KernelRecord kernel(std::string name, std::uint64_t start, std::uint64_t end) {
  KernelRecord k;
  k.name = std::move(name);
  k.start_ns = start;
  k.end_ns = end;
  return k;
}

TEST(SideStream, HonestCallsPassWhateverTheirSize) {
  EXPECT_FALSE(check_side_stream(call(5000, 4990)).has_value());  // a long kernel on the current stream
  EXPECT_FALSE(check_side_stream(call(40, 30)).has_value());      // a short one, sync latency included
  EXPECT_FALSE(check_side_stream(call(20, 4)).has_value());       // a tiny one: the gap is under the margin
}

TEST(SideStream, WorkOffTheCurrentStreamIsFlagged) {
  auto reason = check_side_stream(call(900, 3));
  ASSERT_TRUE(reason.has_value());
  EXPECT_EQ(reason->id, "side-stream");
  EXPECT_NE(reason->message.find("900"), std::string::npos);
  // Just past the margin and under half the device time.
  EXPECT_TRUE(check_side_stream(call(60, 29)).has_value());
  EXPECT_FALSE(check_side_stream(call(60, 31)).has_value());
}

TEST(SideStream, WorkStillRunningAfterTheMarkerOnAnotherStreamIsFlagged) {
  const MemoryRecord marker{MemoryOp::memset, kEndOfForwardMarkerBytes, 7, 100000, 101000};
  Trace joined;  // the side kernel ended before the marker began: the call's stream waited for it
  joined.kernels.push_back(kernel("gelu_kernel", 10000, 99000));
  joined.kernels.back().stream = 13;
  joined.memory.push_back(marker);
  EXPECT_FALSE(check_unjoined_work(joined, 7));
  Trace own_stream;  // long work on the call's own stream is not a side stream
  own_stream.kernels.push_back(kernel("gelu_kernel", 10000, 900000));
  own_stream.kernels.back().stream = 7;
  own_stream.memory.push_back(marker);
  EXPECT_FALSE(check_unjoined_work(own_stream, 7));
  Trace unjoined = joined;
  unjoined.kernels.back().end_ns = 600000;
  auto reason = check_unjoined_work(unjoined, 7);
  ASSERT_TRUE(reason);
  EXPECT_EQ(reason->id, "side-stream");
  EXPECT_NE(reason->message.find("gelu_kernel"), std::string::npos) << reason->message;
  EXPECT_NE(reason->message.find("500 us"), std::string::npos) << reason->message;
  Trace copy = joined;  // a copy left running counts as well
  copy.memory.push_back({MemoryOp::memcpy_dtod, 1 << 20, 13, 99000, 400000});
  EXPECT_TRUE(check_unjoined_work(copy, 7));
  Trace no_marker = unjoined;  // no marker (an older worker, or no CUPTI): nothing to judge
  no_marker.memory.clear();
  EXPECT_FALSE(check_unjoined_work(no_marker, 7));
  // The last marker counts (a candidate's own 20-byte memsets come earlier, inside forward).
  Trace two = unjoined;
  two.memory.insert(two.memory.begin(), MemoryRecord{MemoryOp::memset, kEndOfForwardMarkerBytes, 7, 20000, 21000});
  EXPECT_TRUE(check_unjoined_work(two, 7));
}

TEST(TraceCut, TheCallsRecordsStartAfterTheLastFlush) {
  Trace all;
  all.kernels.push_back(kernel("fill_poison", 100, 200));
  all.memory.push_back({MemoryOp::memset, 64 << 20, 7, 300, 400});  // an earlier flush
  all.memory.push_back({MemoryOp::memset, 64 << 20, 7, 500, 900});  // this call's flush
  all.kernels.push_back(kernel("relu_kernel", 1000, 1100));
  all.memory.push_back({MemoryOp::memset, kEndOfForwardMarkerBytes, 7, 1200, 1210});
  const MemoryRecord* flush = last_memset_of(all, 64 << 20);
  ASSERT_NE(flush, nullptr);
  EXPECT_EQ(flush->start_ns, 500u);
  EXPECT_EQ(last_memset_of(all, 123), nullptr);
  const Trace call = records_after(all, flush->end_ns);
  ASSERT_EQ(call.kernels.size(), 1u);
  EXPECT_EQ(call.kernels[0].name, "relu_kernel");
  ASSERT_EQ(call.memory.size(), 1u);
  EXPECT_EQ(call.memory[0].bytes, kEndOfForwardMarkerBytes);
}

TEST(L2Pinning, AnyPersistingStateFails) {
  EXPECT_FALSE(check_l2_pinning({0, 0}, "the call").has_value());
  // A device that keeps a set-aside after the reset: only more than that is the call's doing.
  EXPECT_FALSE(check_l2_pinning({9830400, 0, 9830400}, "the call").has_value());
  EXPECT_TRUE(check_l2_pinning({9830401, 0, 9830400}, "the call").has_value());
  auto limit = check_l2_pinning({4 << 20, 0}, "the call");
  ASSERT_TRUE(limit.has_value());
  EXPECT_EQ(limit->id, "persisting-l2");
  auto window = check_l2_pinning({0, 1024}, "ModelNew's constructor");
  ASSERT_TRUE(window.has_value());
  EXPECT_NE(window->message.find("ModelNew's constructor"), std::string::npos);
}

TEST(KernelsRan, NoKernelAtAllIsNoOwnKernel) {
  auto reason = check_kernels_ran(Trace{}, {"my_kernel"});
  ASSERT_TRUE(reason.has_value());
  EXPECT_EQ(reason->id, "no-own-kernel");
}

TEST(KernelsRan, LibraryOnlyFailsAndOwnPasses) {
  Trace library;
  library.kernels = {kernel("nvjet_tst_192x192_64x4_1x2_h_bz_coopA_NNN", 0, 100)};
  ASSERT_TRUE(check_kernels_ran(library, {"matmul_kernel"}).has_value());
  Trace own = library;
  own.kernels.push_back(kernel("matmul_kernel", 100, 200));
  EXPECT_FALSE(check_kernels_ran(own, {"matmul_kernel"}).has_value());
}

TEST(TimerConsistency, ReportedTimeMayNotBeFarBelowTheJudgesClock) {
  // judged_s: a timed call's round trip less that of the empty call made right after it.
  // Honest: 2 ms of kernel, the judge saw it plus 0.3 ms of host overhead.
  EXPECT_FALSE(check_timer_consistency(2e-3, 2.3e-3).has_value());
  // Honest and tiny: overhead dominates, under the 1 ms allowance.
  EXPECT_FALSE(check_timer_consistency(5e-6, 0.4e-3).has_value());
  // Forged: the worker says 1 us, the judge saw 20 ms more than an empty call.
  auto reason = check_timer_consistency(1e-6, 20e-3);
  ASSERT_TRUE(reason.has_value());
  EXPECT_EQ(reason->id, "timing-inconsistent");
  // The bound: four times the reported time plus 1 ms.
  EXPECT_FALSE(check_timer_consistency(100e-6, 1.39e-3).has_value());
  EXPECT_TRUE(check_timer_consistency(100e-6, 1.41e-3).has_value());
}

TEST(KernelPolicy, ForbiddenLibrariesAndLeastOwnShare) {
  KernelSummary gemm{"sm90_xmma_gemm_f32f32_f32f32_f32_nn_n", KernelOrigin::cublas, 30, 3e-3};
  KernelSummary fill{"void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>()",
                     KernelOrigin::aten, 30, 1e-5};
  KernelSummary own{"scale_epilogue", KernelOrigin::candidate, 30, 1e-4};
  TaskPolicy allow;
  allow.forbid_library_kernels = false;
  allow.min_own_kernel_share = 0.0;
  EXPECT_FALSE(check_kernel_policy(allow, {gemm, own}, 0.03).has_value());
  // A task that states nothing (a bare KernelBench file) forbids library kernels, and names each one
  // with its share of the kernel time.
  TaskPolicy bare;
  auto library = check_kernel_policy(bare, {gemm, own}, 0.03);
  ASSERT_TRUE(library.has_value());
  EXPECT_EQ(library->id, "library-kernel");
  EXPECT_NE(library->message.find("sm90_xmma_gemm"), std::string::npos);
  EXPECT_NE(library->message.find("96.8% of the kernel time"), std::string::npos);
  EXPECT_FALSE(check_kernel_policy(bare, {own, fill}, 0.99).has_value());  // ATen fills stay allowed
  // ... and requires the default own-kernel share: ATen's compute counts against it.
  auto aten_heavy = check_kernel_policy(bare, {own, fill}, 0.6);
  ASSERT_TRUE(aten_heavy.has_value());
  EXPECT_EQ(aten_heavy->id, "own-kernel-share");
  EXPECT_NE(aten_heavy->message.find("at least 90% (the default)"), std::string::npos);
  TaskPolicy share;
  share.forbid_library_kernels = false;
  share.min_own_kernel_share = 0.5;
  auto low = check_kernel_policy(share, {gemm, own}, 0.03);
  ASSERT_TRUE(low.has_value());
  EXPECT_EQ(low->id, "own-kernel-share");
  EXPECT_FALSE(check_kernel_policy(share, {own, fill}, 0.6).has_value());
}

TEST(TraceWire, RoundTripsAndTruncates) {
  Trace trace;
  KernelRecord k = kernel("_Z6kernelPf", 10, 20);
  k.grid = {4, 2, 1};
  k.block = {256, 1, 1};
  k.stream = 7;
  k.graph = true;
  trace.kernels = {k, kernel("other", 30, 40), kernel("third", 50, 60)};
  trace.memory = {{MemoryOp::memset, 4096, 7, 1, 2}, {MemoryOp::memcpy_dtoh, 64, 7, 3, 4}};
  auto back = trace_from_json(trace_to_json(trace));
  ASSERT_TRUE(back.has_value()) << back.error();
  ASSERT_EQ(back->kernels.size(), 3u);
  EXPECT_EQ(back->kernels[0].name, "_Z6kernelPf");
  EXPECT_EQ(back->kernels[0].grid, (std::array<std::uint32_t, 3>{4, 2, 1}));
  EXPECT_EQ(back->kernels[0].stream, 7u);
  EXPECT_TRUE(back->kernels[0].graph);
  ASSERT_EQ(back->memory.size(), 2u);
  EXPECT_EQ(back->memory[1].op, MemoryOp::memcpy_dtoh);
  auto capped = trace_to_json(trace, 2);
  EXPECT_EQ(capped["kernels"].size(), 2u);
  EXPECT_EQ(capped["truncated"], 1);
}

TEST(TraceWire, MalformedTracesAreErrors) {
  EXPECT_FALSE(trace_from_json(nlohmann::json::object()).has_value());
  EXPECT_FALSE(trace_from_json({{"kernels", {{{"name", 3}}}}, {"memory", nlohmann::json::array()}}).has_value());
  EXPECT_FALSE(
      trace_from_json({{"kernels", nlohmann::json::array()},
                       {"memory", {{{"op", "teleport"}, {"bytes", 1}, {"stream", 0}, {"start", 0}, {"end", 1}}}}})
          .has_value());
}

TEST(TimingJson, CarriesTheAuditFields) {
  TimingReport t;
  t.shapes = {{"N", 4096}};
  t.dtype = "fp32";
  t.speedup = 1.5;
  t.flops = 1e9;
  t.bytes = 1e8;
  t.peaks = {3e12, 60e12};
  t.peaks_source = "calibrated";
  t.compute_peak = "fp32_fma";
  auto point = roofline(t.flops, t.bytes, 1e-3, t.peaks);
  ASSERT_TRUE(point.has_value());
  t.roofline = *point;
  const auto j = to_json(t);
  EXPECT_EQ(j["shapes"]["N"], 4096);
  EXPECT_DOUBLE_EQ(j["speedup"].get<double>(), 1.5);
  EXPECT_DOUBLE_EQ(j["roofline"]["achieved_gflops"].get<double>(), 1000.0);
  EXPECT_DOUBLE_EQ(j["roofline"]["peak_gbps"].get<double>(), 3000.0);
  EXPECT_EQ(j["roofline"]["peaks_source"], "calibrated");
}

TEST(ExecGuard, OnlyTheToolchainMayRun) {
  const auto dir = std::filesystem::temp_directory_path() / "kgate-exec-guard-test";
  std::filesystem::create_directories(dir / "bin");
  std::ofstream(dir / "bin" / "ptxas") << "#!/bin/sh\n";
  const std::vector<std::filesystem::path> allowed{std::filesystem::canonical(dir / "bin")};
  EXPECT_TRUE(exec_allowed((dir / "bin" / "ptxas").string(), "", allowed));
  EXPECT_TRUE(exec_allowed("ptxas", (dir / "bin").string(), allowed));  // looked up on PATH
  EXPECT_FALSE(exec_allowed("/bin/sh", (dir / "bin").string(), allowed));
  EXPECT_FALSE(exec_allowed("sh", "/bin:/usr/bin", allowed));
  EXPECT_FALSE(exec_allowed((dir / "bin" / ".." / ".." / "x").string(), "", allowed));
  EXPECT_FALSE(exec_allowed("", "/bin", allowed));
  // Not remove_all: libtorch.so exports its own copy, which crashes when it interposes (runtime/judge.cpp).
  std::filesystem::remove(dir / "bin" / "ptxas");
  std::filesystem::remove(dir / "bin");
  std::filesystem::remove(dir);
}

}  // namespace
}  // namespace kgate::runtime
