// Summaries of traced kernel launches: which kernels ran, for how long, and whose they were.
#include "runtime/trace.h"

#include <algorithm>
#include <map>

namespace kgate::runtime {

std::vector<KernelSummary> summarize_kernels(const Trace& trace, const std::vector<std::string>& candidate_names) {
  std::map<std::string, KernelSummary> by_name;
  for (const auto& k : trace.kernels) {
    auto [it, inserted] = by_name.try_emplace(k.name);
    auto& row = it->second;
    if (inserted) {
      row.name = demangle(k.name);
      row.origin = classify_kernel(k.name, candidate_names);
    }
    ++row.launches;
    if (k.end_ns > k.start_ns) row.seconds += static_cast<double>(k.end_ns - k.start_ns) * 1e-9;
  }
  std::vector<KernelSummary> rows;
  rows.reserve(by_name.size());
  for (auto& [name, row] : by_name) rows.push_back(std::move(row));
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.seconds > b.seconds; });
  return rows;
}

namespace {

// ATen's constant fills (zeros_like, ones, full, fill_): they count on neither side of the share.
bool is_constant_fill(const KernelSummary& row) {
  return row.origin == KernelOrigin::aten && row.name.find("at::native::FillFunctor<") != std::string::npos;
}

}  // namespace

double candidate_time_share(const std::vector<KernelSummary>& rows) {
  double total = 0.0;
  double own = 0.0;
  for (const auto& row : rows) {
    if (is_constant_fill(row)) continue;
    total += row.seconds;
    if (row.origin == KernelOrigin::candidate) own += row.seconds;
  }
  return total > 0.0 ? own / total : 0.0;
}

std::optional<Reason> check_own_kernel(const std::vector<KernelSummary>& rows) {
  if (rows.empty()) return std::nullopt;  // nothing traced (a CPU run): no evidence either way
  std::string launched;
  for (const auto& row : rows) {
    if (row.origin == KernelOrigin::candidate) return std::nullopt;
    if (launched.size() < 200) {
      launched += (launched.empty() ? "" : ", ") + std::string(kernel_origin_name(row.origin)) + " " +
                  kernel_base_name(row.name);
    }
  }
  return Reason{"no-own-kernel", "none of the launched kernels is the submission's own: " + launched};
}

const MemoryRecord* last_memset_of(const Trace& trace, std::uint64_t bytes) {
  const MemoryRecord* last = nullptr;
  for (const auto& m : trace.memory)
    if (m.op == MemoryOp::memset && m.bytes == bytes && (!last || m.start_ns > last->start_ns)) last = &m;
  return last;
}

Trace records_after(const Trace& trace, std::uint64_t cut_ns) {
  Trace out;
  for (const auto& k : trace.kernels)
    if (k.start_ns >= cut_ns) out.kernels.push_back(k);
  for (const auto& m : trace.memory)
    if (m.start_ns >= cut_ns) out.memory.push_back(m);
  return out;
}

std::string_view memory_op_name(MemoryOp op) {
  switch (op) {
    case MemoryOp::memcpy_htod:
      return "htod";
    case MemoryOp::memcpy_dtoh:
      return "dtoh";
    case MemoryOp::memcpy_dtod:
      return "dtod";
    case MemoryOp::memcpy_other:
      return "memcpy";
    case MemoryOp::memset:
      return "memset";
  }
  return "memcpy";
}

namespace {

std::optional<MemoryOp> memory_op_from(std::string_view name) {
  for (MemoryOp op :
       {MemoryOp::memcpy_htod, MemoryOp::memcpy_dtoh, MemoryOp::memcpy_dtod, MemoryOp::memcpy_other, MemoryOp::memset})
    if (memory_op_name(op) == name) return op;
  return std::nullopt;
}

}  // namespace

nlohmann::json trace_to_json(const Trace& trace, std::size_t max_records) {
  nlohmann::json kernels = nlohmann::json::array();
  for (std::size_t i = 0; i < trace.kernels.size() && i < max_records; ++i) {
    const KernelRecord& k = trace.kernels[i];
    kernels.push_back({{"name", k.name},
                       {"grid", k.grid},
                       {"block", k.block},
                       {"stream", k.stream},
                       {"start", k.start_ns},
                       {"end", k.end_ns},
                       {"graph", k.graph}});
  }
  nlohmann::json memory = nlohmann::json::array();
  for (std::size_t i = 0; i < trace.memory.size() && i < max_records; ++i) {
    const MemoryRecord& m = trace.memory[i];
    memory.push_back({{"op", std::string(memory_op_name(m.op))},
                      {"bytes", m.bytes},
                      {"stream", m.stream},
                      {"start", m.start_ns},
                      {"end", m.end_ns}});
  }
  const std::size_t truncated = (trace.kernels.size() > max_records ? trace.kernels.size() - max_records : 0) +
                                (trace.memory.size() > max_records ? trace.memory.size() - max_records : 0);
  return {{"kernels", kernels}, {"memory", memory}, {"truncated", truncated}};
}

Result<Trace> trace_from_json(const nlohmann::json& j) {
  try {
    Trace trace;
    for (const auto& k : j.at("kernels")) {
      KernelRecord r;
      r.name = k.at("name").get<std::string>();
      r.grid = k.at("grid").get<std::array<std::uint32_t, 3>>();
      r.block = k.at("block").get<std::array<std::uint32_t, 3>>();
      r.stream = k.at("stream").get<std::uint32_t>();
      r.start_ns = k.at("start").get<std::uint64_t>();
      r.end_ns = k.at("end").get<std::uint64_t>();
      r.graph = k.value("graph", false);
      trace.kernels.push_back(std::move(r));
    }
    for (const auto& m : j.at("memory")) {
      auto op = memory_op_from(m.at("op").get<std::string>());
      if (!op) return Error{"trace: unknown memory operation " + m.at("op").dump()};
      trace.memory.push_back({*op, m.at("bytes").get<std::uint64_t>(), m.at("stream").get<std::uint32_t>(),
                              m.at("start").get<std::uint64_t>(), m.at("end").get<std::uint64_t>()});
    }
    return trace;
  } catch (const nlohmann::json::exception& e) {
    return Error{std::string("trace: ") + e.what()};
  }
}

}  // namespace kgate::runtime
