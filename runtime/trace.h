// What a traced run launched: kernel and memory-operation records (as CUPTI's activity API reports them)
// and the per-kernel summary the judge reads: launches, GPU time and origin of each kernel name.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzers/core/status.h"

#include "runtime/profile.h"
#include "runtime/verdict.h"

namespace kgate::runtime {

struct KernelRecord {
  std::string name;  // as reported: usually Itanium-mangled for CUDA C++, plain for Triton
  std::array<std::uint32_t, 3> grid{1, 1, 1};
  std::array<std::uint32_t, 3> block{1, 1, 1};
  std::uint32_t stream = 0;
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
  bool graph = false;  // executed as a node of a CUDA graph
};

enum class MemoryOp { memcpy_htod, memcpy_dtoh, memcpy_dtod, memcpy_other, memset };

struct MemoryRecord {
  MemoryOp op = MemoryOp::memcpy_other;
  std::uint64_t bytes = 0;
  std::uint32_t stream = 0;
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
};

// "htod", "dtoh", "dtod", "memcpy", "memset" (the trace JSON's names).
std::string_view memory_op_name(MemoryOp);

// The worker's end-of-forward marker: a memset of this many bytes on the call's stream, issued right
// after forward returns (runtime/cuda/gpu_timer.h). An odd size that the flush (>= 8 MiB) never has.
inline constexpr std::uint64_t kEndOfForwardMarkerBytes = 20;

struct Trace {
  std::vector<KernelRecord> kernels;
  std::vector<MemoryRecord> memory;
};

// The memset of exactly `bytes` that started last (the L2 flush before a call); nullptr when none.
const MemoryRecord* last_memset_of(const Trace&, std::uint64_t bytes);
// The records that started at or after cut_ns (what a call did after its preparation ended).
Trace records_after(const Trace&, std::uint64_t cut_ns);

// The worker sends each call's trace to the judge as JSON; at most `max_records` kernels and as many
// memory operations are kept (the rest are counted in "truncated"), so a call that launches millions
// of kernels cannot flood the control pipe.
nlohmann::json trace_to_json(const Trace&, std::size_t max_records = 4096);
// A malformed trace is an error (the worker is untrusted): the judge treats the call as failed.
Result<Trace> trace_from_json(const nlohmann::json&);

struct KernelSummary {
  std::string name;  // demangled
  KernelOrigin origin = KernelOrigin::unknown;
  std::size_t launches = 0;
  double seconds = 0.0;  // summed duration of its launches
};

// One row per distinct kernel, longest total time first.
std::vector<KernelSummary> summarize_kernels(const Trace&, const std::vector<std::string>& candidate_names);
// The share of kernel time spent in the candidate's own kernels (0 when nothing ran). PyTorch's
// constant fills (torch::zeros_like, ones, full, fill_: ATen's FillFunctor kernels) count on neither
// side: they write a constant, so they cannot do a task's work, and an honest kernel that allocates its
// output with zeros_like before writing every element spends a third of an elementwise call in one.
double candidate_time_share(const std::vector<KernelSummary>&);
// no-own-kernel (F2) when the traced call launched kernels but none of them is the candidate's own.
std::optional<Reason> check_own_kernel(const std::vector<KernelSummary>&);

}  // namespace kgate::runtime
