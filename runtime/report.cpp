// A run's report, for machines (JSON, the CLI contract of docs/runtime.md) and for people.
#include <iomanip>
#include <ostream>

#include "runtime/judge.h"

#include "runtime/gpu_evidence.h"
#include "runtime/input_contract.h"
#include "runtime/trace.h"

using nlohmann::json;

namespace kgate::runtime {

json to_json(const RunReport& report) {
  json cases = json::array();
  for (const auto& c : report.cases) {
    json shapes = json::object();
    for (const auto& [k, v] : c.shapes) shapes[k] = v;
    json item{{"shape_set", c.shape_index},
              {"hidden_shape", c.hidden_shape},
              {"shapes", shapes},
              {"dtype", std::string(dtype_name(c.dtype))},
              {"seed_index", c.seed_index},
              {"distribution", std::string(distribution_name(c.distribution))},
              {"reference_first", c.reference_first},
              {"determinism_checked", c.determinism_checked},
              {"verdict", std::string(verdict_name(c.verdict))},
              {"timed", c.timed},
              {"matched_fp32_reference", c.matched_fp32_reference},
              {"accepted_by_task_checker", c.accepted_by_task_checker},
              {"errors",
               {{"max_abs", c.max_abs_err},
                {"max_rel", c.max_rel_err},
                {"norm_ratio", c.norm_err_ratio},
                {"mismatches", c.mismatches}}}};
    if (c.reason) item["reason"] = {{"id", c.reason->id}, {"message", c.reason->message}};
    cases.push_back(std::move(item));
  }
  json reasons = json::array();
  for (const auto& r : report.reasons) reasons.push_back({{"id", r.id}, {"message", r.message}});
  json compiles = json::array();
  for (const auto& c : report.compiles)
    compiles.push_back({{"name", c.name}, {"key", c.key}, {"hit", c.hit}, {"ms", c.milliseconds}, {"error", c.error}});
  json out{{"profile", report.profile},
           {"task", report.task},
           {"category", report.category},
           {"submission", report.submission},
           {"device", report.device},
           {"verdict", std::string(verdict_name(report.verdict))},
           {"reasons", reasons},
           {"cases", cases},
           {"sandbox", to_json(report.sandbox)},
           {"compile_cache", compiles},
           {"worker_ahead", report.worker_ahead},
           {"worker_end", report.worker_end},
           {"ran_alone", report.ran_alone},
           {"seconds", report.seconds}};
  json inputs = json::array();
  for (const auto& spec : report.inputs) {
    json item{{"name", spec.name}, {"fill", spec.fill ? std::string(fill_name(*spec.fill)) : "random"}};
    if (spec.pattern) item["pattern"] = std::string(pattern_name(*spec.pattern));
    if (!spec.inferred.empty()) item["inferred"] = spec.inferred;
    inputs.push_back(std::move(item));
  }
  out["inputs"] = inputs;
  json skipped = json::array();
  for (const auto& s : report.skipped)
    skipped.push_back({{"distribution", std::string(distribution_name(s.distribution))}, {"reason", s.reason}});
  out["skipped_distributions"] = skipped;
  json derived = json::array();
  for (const auto& set : report.derived_hidden_shapes) derived.push_back(set);
  out["derived_hidden_shapes"] = derived;
  out["derived_from"] = report.derived_from;
  out["reference_notes"] = report.reference_notes;
  out["parameter_redraw"] = report.parameter_redraw;
  const auto phases_json = [](const std::vector<Phase>& phases) {
    json list = json::array();
    for (const auto& p : phases) list.push_back({{"phase", p.name}, {"seconds", p.seconds}});
    return list;
  };
  out["phases"] = phases_json(report.phases);
  out["worker_startup"] = phases_json(report.worker_startup);
  if (report.timing) out["timing"] = to_json(*report.timing);
  return out;
}

void write_text(std::ostream& out, const RunReport& report) {
  std::size_t passed = 0;
  for (const auto& c : report.cases) passed += c.verdict == Verdict::pass;
  out << report.submission << ": " << verdict_name(report.verdict) << " (task " << report.task << ", " << report.device
      << ", " << report.profile << " profile, " << passed << "/" << report.cases.size() << " cases passed, "
      << std::fixed << std::setprecision(1) << report.seconds << " s)\n";
  for (const auto& r : report.reasons) out << "  " << r.id << ": " << r.message << "\n";
  if (report.ran_alone) out << "  ran again with the GPU to itself after running out of memory\n";
  for (const auto& spec : report.inputs)
    if (!spec.inferred.empty() || spec.fill || spec.pattern)
      out << "  input " << spec.name << ": " << describe(spec) << "\n";
  for (const auto& set : report.derived_hidden_shapes) {
    out << "  hidden shapes (from " << report.derived_from << "):";
    for (const auto& [name, value] : set) out << " " << name << "=" << value;
    out << "\n";
  }
  for (const auto& note : report.reference_notes) out << "  reference: " << note << "\n";
  if (!report.parameter_redraw.empty()) out << "  parameters: " << report.parameter_redraw << "\n";
  for (const auto& s : report.skipped)
    out << "  skipped " << distribution_name(s.distribution) << ": " << s.reason << "\n";
  out << "  sandbox: " << report.sandbox.mode;
  if (report.sandbox.landlock_abi)
    out << " (Landlock ABI " << report.sandbox.landlock_abi << ", seccomp)";
  else if (report.sandbox.seccomp)
    out << " (seccomp only: Landlock is unavailable on this kernel)";
  out << "\n";
  for (const auto& c : report.compiles)
    out << "  compile " << c.name << ": " << (c.hit ? "cache hit" : "built") << " in " << std::setprecision(1)
        << c.milliseconds << " ms" << (c.error.empty() ? "" : " (" + c.error + ")") << "\n";
  if (report.timing) {
    const TimingReport& t = *report.timing;
    out << std::setprecision(1) << "  timing (" << t.candidate.calls.size() << " calls after " << t.warmup_calls
        << " warm-up, " << t.dtype << "): candidate median " << t.candidate.synced.median * 1e6 << " us (IQR "
        << t.candidate.synced.iqr * 1e6 << ", CV " << std::setprecision(3) << t.candidate.synced.cv
        << std::setprecision(1) << "), eager PyTorch " << t.reference.synced.median * 1e6 << " us, speedup "
        << std::setprecision(2) << t.speedup << "x";
    if (t.speedup_vs_compile) out << ", vs torch.compile " << *t.speedup_vs_compile << "x";
    out << "\n  kernels: own " << std::setprecision(1) << t.own_kernel_share * 100 << "% of kernel time";
    for (std::size_t i = 0; i < t.kernels.size() && i < 5; ++i)
      out << (i ? "; " : ": ") << kernel_origin_name(t.kernels[i].origin) << " " << kernel_base_name(t.kernels[i].name)
          << " x" << t.kernels[i].launches;
    out << "\n";
    if (t.roofline)
      out << std::setprecision(3) << "  roofline (" << t.peaks_source << " peaks, " << t.compute_peak << "): MFU "
          << t.roofline->mfu << ", IOU " << t.roofline->iou << ", " << (t.roofline->memory_bound ? "memory" : "compute")
          << "-bound, floor " << t.roofline->floor_seconds * 1e6 << " us\n";
  }
  if (!report.phases.empty()) {
    out << "  phases:" << std::setprecision(2);
    for (const auto& p : report.phases) out << " " << p.name << " " << p.seconds << " s;";
    out << "\n  worker start-up:";
    for (const auto& p : report.worker_startup) out << " " << p.name << " " << p.seconds << " s;";
    out << "\n";
  }
  if (report.verdict == Verdict::crashed && !report.worker_log_tail.empty())
    out << "  worker output (tail):\n" << report.worker_log_tail << "\n";
}

}  // namespace kgate::runtime
