// The verdicts a GPU run draws from what the worker measured (CUPTI records, event times, the L2
// configuration) and from the judge's own clock: pure functions, so they are unit-tested on CPU.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "runtime/task.h"
#include "runtime/timing.h"
#include "runtime/trace.h"
#include "runtime/verdict.h"

namespace kgate::runtime {

// side-stream (T1): forward returned with work still running off the current stream, i.e. the current
// stream's end event came well before the device-wide one. The margin keeps the synchronize's own
// latency (a few microseconds) from flagging honest calls.
inline constexpr double kSideStreamShare = 0.5;
inline constexpr double kSideStreamMarginS = 25e-6;
std::optional<Reason> check_side_stream(const TimedCall&);
// The same from CUPTI's side: a kernel, copy or memset on another stream than the call's that was still
// running kUnjoinedMarginNs after the end-of-forward marker (kEndOfForwardMarkerBytes) began on the
// call's stream: forward returned without making its stream wait for that work (T1). Work that ended
// before forward returned is not seen, and gains nothing either. No marker: nothing to judge.
inline constexpr std::uint64_t kUnjoinedMarginNs = 2000;
std::optional<Reason> check_unjoined_work(const Trace&, std::uint32_t call_stream);

// persisting-l2 (T15): what a call (or ModelNew's constructor) left in the L2 configuration.
struct L2Pinning {
  std::size_t persisting_limit = 0;
  std::size_t window_bytes = 0;
  std::size_t baseline_limit = 0;  // the set-aside the device keeps after a reset to zero
};
std::optional<Reason> check_l2_pinning(const L2Pinning&, const std::string& when);

// no-own-kernel (F2): some kernel of the submission's own ran during the call; a call that ran no kernel
// at all fails too (its output was not computed on the GPU by the submission).
std::optional<Reason> check_kernels_ran(const Trace&, const std::vector<std::string>& own_kernel_names);

// timing-inconsistent (T5, T6): the worker's timer runs next to the candidate's code and could be made
// to report anything. The judge's round trip of a call, less that of an empty call made under the same
// load (judged_s), bounds the real time from above; a reported time far below it (4x, plus 1 ms for
// forward's own host overhead) is forged.
std::optional<Reason> check_timer_consistency(double reported_s, double judged_s);

// The task's runtime policy over the timed calls' kernels: library-kernel (F6) when cuBLAS, cuDNN or
// CUTLASS kernels ran and the task forbids them (ATen's elementwise, copy and fill kernels stay allowed),
// own-kernel-share (F5) when the submission's own kernels took less than the task's least share.
std::optional<Reason> check_kernel_policy(const TaskPolicy&, const std::vector<KernelSummary>&, double own_share);

}  // namespace kgate::runtime
