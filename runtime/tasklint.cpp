// `kgate tasks lint`: the judgments over runtime/tasklint.py's measurements, and the driver that
// loads each manifest and runs its reference in the embedded interpreter.
#include "runtime/tasklint.h"

#include <algorithm>

#include <cmath>
#include <sstream>
#include <system_error>

#include <pybind11/eval.h>
#include <pybind11/pybind11.h>

#include "runtime/embed.h"
#include "runtime/input_contract.h"
#include "runtime/tasklint_py.h"

namespace kgate::runtime {

namespace fs = std::filesystem;
namespace py = pybind11;

namespace {

std::string number(double value) {
  std::ostringstream out;
  out.precision(6);
  out << value;
  return out.str();
}

std::string where(std::size_t shape_index) { return "on shapes.public[" + std::to_string(shape_index) + "]"; }

// Would an all-zero output pass the contract against an expected output of this magnitude?
bool zeros_pass(const Task& task, DType dtype, double max_abs, double l2, double numel) {
  if (task.contract == Contract::quantization)
    return l2 / std::sqrt(std::max(numel, 1.0)) <= task.quantization.rmse_max;
  const Tolerance t = task.tolerance_for(dtype);
  const bool elementwise = max_abs * (1.0 - t.rtol) <= t.atol;
  const bool norm = l2 * (1.0 - t.norm_rtol) <= t.atol * std::sqrt(numel);
  return elementwise && norm;
}

void judge_magnitude(const Task& task, std::size_t shape_index, const nlohmann::json& out,
                     std::vector<LintFinding>& findings) {
  const double numel = out.value("numel", 0.0);
  if (out.value("nonfinite", 0) > 0)
    findings.push_back({kLintNonFinite, std::to_string(out.value("nonfinite", 0)) + " of " + number(numel) +
                                            " output values are NaN or infinite " + where(shape_index)});
  const double max_abs = out.value("max_abs", 0.0) / kMagnitudeMargin;
  const double l2 = out.value("l2", 0.0) / kMagnitudeMargin;
  for (DType dtype : task.dtypes) {
    if (!zeros_pass(task, dtype, max_abs, l2, numel)) continue;
    const double rms = out.value("l2", 0.0) / std::sqrt(std::max(numel, 1.0));
    const std::string bound = task.contract == Contract::quantization
                                  ? "rmse_max " + number(task.quantization.rmse_max)
                                  : "atol " + number(task.tolerance_for(dtype).atol);
    findings.push_back({kLintBelowTolerance,
                        "output RMS " + number(rms) + " (max |y| " + number(out.value("max_abs", 0.0)) + ") " +
                            where(shape_index) + " is within " + number(kMagnitudeMargin) + "x of the " +
                            std::string(dtype_name(dtype)) + " " + bound + ": an all-zero output would pass (M4)"});
    return;  // one dtype is enough to say it
  }
}

void judge_dependence(const nlohmann::json& dependence, std::size_t shape_index, std::vector<LintFinding>& findings) {
  bool any_redrawn = false;
  for (const auto& entry : dependence) {
    if (!entry.value("redrawn", false)) continue;
    any_redrawn = true;
    if (!entry.value("output_changed", true))
      findings.push_back({kLintConstantOutput, "the output does not change when input " +
                                                   std::to_string(entry.value("index", 0)) + " is drawn again " +
                                                   where(shape_index) + " (M5)"});
  }
  if (!any_redrawn)
    findings.push_back({kLintConstantOutput, "get_inputs() returns the same values under every seed " +
                                                 where(shape_index) +
                                                 ", so the output cannot depend on the input or the seed (M5)"});
}

void judge_formulas(const Task& task, std::size_t shape_index, const nlohmann::json& facts,
                    std::vector<LintFinding>& findings) {
  const ShapeSet& shape = task.public_shapes[shape_index];
  const double counted = facts.value("flops_counted", 0.0);
  std::string ops;
  if (facts.contains("flops_by_op"))
    for (const auto& [op, n] : facts.at("flops_by_op").items())
      ops += (ops.empty() ? "" : ", ") + op + " " + number(n.get<double>());
  if (task.bare_kernelbench) {
    // A bare file has no manifest to hold formulas.
  } else if (counted > 0 && !task.flops) {
    findings.push_back({kLintFlops, "FlopCounterMode counts " + number(counted) + " FLOPs (" + ops + ") " +
                                        where(shape_index) + " but the manifest has no flops formula"});
  } else if (counted > 0) {
    auto value = eval_formula(*task.flops, shape, DType::fp32);
    if (!value) {
      findings.push_back({kLintFlops, value.error()});
    } else if (*value < counted * (1.0 - 1e-9) || *value > counted * kFlopsSlack) {
      findings.push_back({kLintFlops, "'" + *task.flops + "' gives " + number(*value) + " " + where(shape_index) +
                                          " but FlopCounterMode counts " + number(counted) + " (" + ops +
                                          "); a formula may add at most " + number(kFlopsSlack) +
                                          "x for ops the counter does not count, never less"});
    }
  }
  if (!task.bytes) return;
  auto value = eval_formula(*task.bytes, shape, DType::fp32);
  if (!value) {
    findings.push_back({kLintBytes, value.error()});
    return;
  }
  const double output = facts.value("output_bytes", 0.0);
  const double touched = output + facts.value("input_bytes", 0.0) + facts.value("parameter_bytes", 0.0);
  if (*value < output)
    findings.push_back({kLintBytes, "'" + *task.bytes + "' gives " + number(*value) + " bytes (fp32) " +
                                        where(shape_index) + ", less than the output alone (" + number(output) + ")"});
  else if (*value > touched * kBytesSlack)
    findings.push_back({kLintBytes, "'" + *task.bytes + "' gives " + number(*value) + " bytes (fp32) " +
                                        where(shape_index) + ", over " + number(kBytesSlack) + "x the " +
                                        number(touched) + " bytes of inputs, output, parameters and buffers together"});
}

}  // namespace

std::vector<LintFinding> judge_facts(const Task& task, std::size_t shape_index, const nlohmann::json& facts) {
  std::vector<LintFinding> findings;
  if (facts.contains("not_int_globals") && !facts.at("not_int_globals").empty()) {
    std::string names;
    for (const auto& n : facts.at("not_int_globals")) names += (names.empty() ? "" : ", ") + n.get<std::string>();
    findings.push_back({kLintSymbols, "shape symbols " + names + " are not module-level int globals of " +
                                          task.reference.filename().string() +
                                          " (the runtime sets them before calling get_inputs and get_init_inputs)"});
  }
  if (facts.contains("error")) {
    findings.push_back({kLintReference, facts.at("error").get<std::string>() + " " + where(shape_index)});
    return findings;
  }
  if (!findings.empty()) return findings;
  if (!facts.value("deterministic", false))
    findings.push_back(
        {kLintNondeterministic, "two runs with the same seed and inputs give different outputs " + where(shape_index)});
  if (facts.contains("output")) judge_magnitude(task, shape_index, facts.at("output"), findings);
  if (facts.contains("dependence")) judge_dependence(facts.at("dependence"), shape_index, findings);
  judge_formulas(task, shape_index, facts, findings);
  return findings;
}

Result<std::vector<fs::path>> lint_targets(const std::vector<fs::path>& paths) {
  std::vector<fs::path> dirs;
  std::error_code ec;
  for (const auto& path : paths) {
    if (fs::is_regular_file(path, ec) && path.extension() == ".py") {
      dirs.push_back(path);
      continue;
    }
    if (fs::is_regular_file(path, ec) && path.filename() == "task.yaml") {
      dirs.push_back(path.parent_path().empty() ? fs::path(".") : path.parent_path());
      continue;
    }
    if (!fs::exists(path, ec)) return Error{"no such file or directory: " + path.string()};
    const auto found = task_dirs_under(path);
    if (found.empty()) return Error{path.string() + ": no task (no task.yaml) here or below"};
    dirs.insert(dirs.end(), found.begin(), found.end());
  }
  return dirs;
}

Result<std::vector<TaskLint>> lint_tasks(const std::vector<fs::path>& task_dirs, const LintOptions& options) {
  if (auto started = embed::start_python(); !started) return Error{started.message()};
  py::object measure;
  py::object draw_inputs;
  try {
    py::dict scope;
    scope["__name__"] = "kgate_tasklint";
    scope["__builtins__"] = py::module_::import("builtins");
    py::exec(kTaskLintPy, scope);
    measure = scope["measure"];
    draw_inputs = scope["draw_inputs"];
  } catch (const py::error_already_set& e) {
    return Error{"runtime/tasklint.py: " + embed::error_text(e)};
  }
  std::vector<TaskLint> results;
  for (const auto& dir : task_dirs) {
    TaskLint lint;
    lint.path = dir;
    auto task = load_task(dir);
    if (!task) {
      lint.findings.push_back({kLintManifest, task.error()});
      results.push_back(std::move(lint));
      continue;
    }
    lint.name = task->name;
    std::error_code ec;
    if (!options.policies_dir.empty() &&
        !fs::is_regular_file(options.policies_dir / (task->policy.category + ".yaml"), ec))
      lint.findings.push_back({kLintPolicy, "policy.category '" + task->policy.category + "' names no file in " +
                                                options.policies_dir.string()});
    for (std::size_t i = 0; i < task->public_shapes.size(); ++i) {
      nlohmann::json shapes(task->public_shapes[i]);
      nlohmann::json facts;
      try {
        const std::string text = measure(task->reference.string(), shapes.dump(), options.seed).cast<std::string>();
        facts = nlohmann::json::parse(text);
      } catch (const py::error_already_set& e) {
        facts = {{"error", "runtime/tasklint.py: " + embed::error_text(e)}};
      } catch (const nlohmann::json::exception& e) {
        facts = {{"error", std::string("runtime/tasklint.py returned no JSON: ") + e.what()}};
      }
      for (auto& finding : judge_facts(*task, i, facts)) lint.findings.push_back(std::move(finding));
      lint.measured.push_back(std::move(facts));
    }
    // The input contract is drawn from a reference that ran: one that could not is reported above once.
    const bool ran = std::none_of(lint.measured.begin(), lint.measured.end(),
                                  [](const nlohmann::json& m) { return m.contains("error"); });
    if (task->bare_kernelbench && ran) {
      try {
        std::vector<std::vector<at::Tensor>> draws;
        for (int i = 0; i < kContractDraws; ++i) {
          std::vector<at::Tensor> draw;
          for (auto item : draw_inputs(task->reference.string(), options.seed + 1 + static_cast<std::uint64_t>(i)))
            draw.push_back(py::isinstance<py::none>(item) ? at::Tensor() : embed::unwrap(item));
          draws.push_back(std::move(draw));
        }
        lint.inferred_inputs = infer_input_specs(draws);
      } catch (const py::error_already_set& e) {
        lint.findings.push_back(
            {kLintReference, "drawing get_inputs() for its input contract: " + embed::error_text(e)});
      }
    }
    results.push_back(std::move(lint));
  }
  return results;
}

}  // namespace kgate::runtime
