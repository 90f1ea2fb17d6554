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

double candidate_time_share(const std::vector<KernelSummary>& rows) {
  double total = 0.0;
  double own = 0.0;
  for (const auto& row : rows) {
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

}  // namespace kgate::runtime
