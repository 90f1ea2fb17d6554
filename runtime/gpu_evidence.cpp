// GPU evidence verdicts: side streams, L2 pinning, own kernels, timer consistency, kernel policy.
#include "runtime/gpu_evidence.h"

#include <sstream>

namespace kgate::runtime {

std::optional<Reason> check_side_stream(const TimedCall& call) {
  if (call.stream_s >= kSideStreamShare * call.synced_s || call.synced_s - call.stream_s <= kSideStreamMarginS)
    return std::nullopt;
  std::ostringstream out;
  out.precision(4);
  out << "forward returned with work still running off the current stream: the current stream was done after "
      << call.stream_s * 1e6 << " us, the device after " << call.synced_s * 1e6
      << " us (a side stream or a background launch that a timer on the current stream would not see)";
  return Reason{"side-stream", out.str()};
}

std::optional<Reason> check_unjoined_work(const Trace& trace, std::uint32_t call_stream) {
  const MemoryRecord* marker = nullptr;
  for (const auto& m : trace.memory)
    if (m.op == MemoryOp::memset && m.bytes == kEndOfForwardMarkerBytes && m.stream == call_stream &&
        (!marker || m.start_ns > marker->start_ns))
      marker = &m;
  if (!marker) return std::nullopt;
  const std::uint64_t limit = marker->start_ns + kUnjoinedMarginNs;
  const auto report = [&](const std::string& what, std::uint32_t stream, std::uint64_t end_ns) {
    std::ostringstream out;
    out << what << " on stream " << stream << " ran until " << (end_ns - marker->start_ns) / 1000.0
        << " us after forward returned, and the call's stream " << call_stream
        << " did not wait for it: a timer on the current stream would not see that work";
    return Reason{"side-stream", out.str()};
  };
  for (const auto& k : trace.kernels)
    if (k.stream != call_stream && k.end_ns > limit) return report("kernel " + k.name, k.stream, k.end_ns);
  for (const auto& m : trace.memory)
    if (m.stream != call_stream && m.end_ns > limit)
      return report(std::string(memory_op_name(m.op)) + " of " + std::to_string(m.bytes) + " bytes", m.stream,
                    m.end_ns);
  return std::nullopt;
}

std::optional<Reason> check_l2_pinning(const L2Pinning& l2, const std::string& when) {
  if (l2.persisting_limit <= l2.baseline_limit && l2.window_bytes == 0) return std::nullopt;
  return Reason{"persisting-l2", when + " left a persisting-L2 set-aside of " + std::to_string(l2.persisting_limit) +
                                     " bytes and an access-policy window of " + std::to_string(l2.window_bytes) +
                                     " bytes: operands pinned in L2 survive the flush between timed calls (T15)"};
}

std::optional<Reason> check_kernels_ran(const Trace& trace, const std::vector<std::string>& own) {
  if (trace.kernels.empty())
    return Reason{"no-own-kernel",
                  "no kernel ran on the GPU during the call (CUPTI saw none): the output was not computed by a kernel "
                  "of the submission's"};
  return check_own_kernel(summarize_kernels(trace, own));
}

std::optional<Reason> check_timer_consistency(double reported_s, double judged_s) {
  if (judged_s <= 4.0 * reported_s + 1e-3) return std::nullopt;
  std::ostringstream out;
  out.precision(4);
  out << "the worker reported " << reported_s * 1e6 << " us per call, but the judge's own clock saw each call take "
      << judged_s * 1e6 << " us longer than an empty call: the worker's timer does not measure the call (T5, T6)";
  return Reason{"timing-inconsistent", out.str()};
}

std::optional<Reason> check_kernel_policy(const TaskPolicy& policy, const std::vector<KernelSummary>& kernels,
                                          double own_share) {
  double total = 0.0;
  for (const auto& k : kernels) total += k.seconds;
  std::ostringstream out;
  out.precision(3);
  if (policy.forbid_library_kernels) {
    std::size_t named = 0;
    for (const auto& k : kernels) {
      if (k.origin != KernelOrigin::cublas && k.origin != KernelOrigin::cudnn && k.origin != KernelOrigin::cutlass)
        continue;
      out << (named++ ? "; " : "") << kernel_origin_name(k.origin) << " kernel " << kernel_base_name(k.name) << " ran "
          << k.launches << " times";
      if (total > 0) out << " (" << 100.0 * k.seconds / total << "% of the kernel time)";
    }
    if (named)
      return Reason{"library-kernel",
                    "the task does not allow cuBLAS, cuDNN and CUTLASS kernels (its manifest would say "
                    "`library_kernels: allow`), and " +
                        out.str()};
  }
  const double least = policy.min_own_kernel_share.value_or(kDefaultMinOwnKernelShare);
  if (own_share < least) {
    out << "the submission's own kernels took " << own_share * 100
        << "% of the kernel time, the task requires at least " << least * 100 << "%"
        << (policy.min_own_kernel_share ? "" : " (the default)") << "; the rest ran in";
    std::size_t named = 0;
    for (const auto& k : kernels) {
      if (k.origin == KernelOrigin::candidate || named == 3) continue;
      out << (named++ ? "," : "") << " " << kernel_origin_name(k.origin) << " " << kernel_base_name(k.name);
      if (total > 0) out << " (" << 100.0 * k.seconds / total << "%)";
    }
    out << " (F5)";
    return Reason{"own-kernel-share", out.str()};
  }
  return std::nullopt;
}

}  // namespace kgate::runtime
