// The judge's case loop: fresh inputs under the task's contract, the reference here and the candidate in
// the worker on the same inputs, every defence on every call, and the input-dependence probe.
#include "runtime/judge_session.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <string>
#include <vector>

#include "runtime/compare.h"
#include "runtime/defences.h"
#include "runtime/embed.h"

namespace kgate::runtime::detail {

// Runs every case; stops at the first case that ends the worker.
Status Judge::run_cases(py::module_& helper, py::object& reference) {
  std::vector<std::pair<ShapeSet, bool>> shape_sets;
  for (const auto& s : task_.public_shapes) shape_sets.emplace_back(s, false);
  if (options_.hidden_shapes)
    for (const auto& s : task_.hidden_shapes) shape_sets.emplace_back(s, true);
  if (shape_sets.empty()) shape_sets.emplace_back(ShapeSet{}, false);
  const int seeds = options_.seeds;  // judge_submission() resolved the profile's defaults

  for (std::size_t shape_index = 0; shape_index < shape_sets.size(); ++shape_index) {
    const auto& [shapes, hidden] = shape_sets[shape_index];
    for (const DType dtype : task_.dtypes) {
      py::object model;
      Answer built = build_models(helper, reference, shapes, dtype, model);
      if (!built.ok) {
        if (built.verdict == Verdict::error) return Error{built.reason.message};
        return finish_with(built, shape_index, hidden, shapes, dtype);
      }
      if (Status s = settle_contract(helper, reference, shapes, dtype); !s) return s;
      if (!domain_checked_) check_domain(helper, reference, model, dtype);
      bool determinism_pending = true;
      for (int seed_index = 0; seed_index < seeds; ++seed_index) {
        for (const Distribution distribution : distributions_) {
          if (auto why = distribution_conflict(*specs_, distribution)) {
            const bool known =
                std::any_of(report_.skipped.begin(), report_.skipped.end(),
                            [&](const SkippedDistribution& s) { return s.distribution == distribution; });
            if (!known) report_.skipped.push_back({distribution, *why});
            continue;
          }
          CaseResult result;
          result.shape_index = shape_index;
          result.hidden_shape = hidden;
          result.shapes = shapes;
          result.dtype = dtype;
          result.seed_index = seed_index;
          result.distribution = distribution;
          auto status = run_case(helper, reference, model, result, determinism_pending);
          if (!status) return Error{status.error()};
          determinism_pending = determinism_pending && !result.determinism_checked;
          const Verdict v = result.verdict;
          report_.cases.push_back(std::move(result));
          // The first case carries the first call's one-off costs (a JIT compile in the worker).
          lap(report_.cases.size() == 1 ? "first case" : "cases");
          if (v != Verdict::pass && v != Verdict::fail) return Status::ok();
        }
      }
      // Once per run, on the first shape set and dtype whose cases all passed: does the output depend
      // on each input where the reference's does (degenerate references, analytic shortcuts)?
      if (shape_index == 0 && dtype == task_.dtypes.front() &&
          std::all_of(report_.cases.begin(), report_.cases.end(),
                      [](const CaseResult& c) { return c.verdict == Verdict::pass; })) {
        CaseResult probe;
        probe.shapes = shapes;
        probe.dtype = dtype;
        auto status = probe_input_dependence(helper, reference, model, probe);
        lap("input probe");
        if (!status) return Error{status.error()};
        if (probe.verdict != Verdict::pass) {
          const Verdict v = probe.verdict;
          report_.cases.push_back(std::move(probe));
          if (v != Verdict::fail) return Status::ok();
        }
      }
    }
  }
  return Status::ok();
}

// The reference's output for `inputs` (cloned first: the reference may write its inputs).
Outputs Judge::reference_output(py::module_& helper, py::object& model, const std::vector<at::Tensor>& inputs) {
  py::list clones;
  for (const auto& t : inputs) clones.append(embed::wrap(t.clone()));
  return embed::unwrap_all(helper.attr("run_reference")(model, clones));
}

// ignores-input (M15): each floating input in turn is poisoned with NaN. Where the reference's output
// changes, the candidate's must change too (any change counts: an honest max(x, 0) may turn NaN into
// 0); a candidate that returns the very same output never read that input: a shortcut that fits a
// degenerate reference, such as a mean over a normalisation that is its bias whatever x is. Also
// notes, for the report, inputs the reference's output does not depend on (a fresh draw of that input
// leaves it within tolerance) and a reference whose output zeros would match.
Result<bool> Judge::probe_input_dependence(py::module_& helper, py::object& reference, py::object& model,
                                           CaseResult& result) {
  auto made = make_inputs(helper, reference, result.dtype, base_distribution_);
  auto other = make_inputs(helper, reference, result.dtype, base_distribution_);
  if (!made || !other) return Error{made ? other.error() : made.error()};
  const std::vector<at::Tensor>& inputs = *made;
  Outputs plain_out;
  Outputs expected;
  std::vector<TensorSlot> slots;
  try {
    expected = reference_output(helper, model, inputs);
  } catch (const py::error_already_set& e) {
    return Error{"the reference failed: " + embed::error_text(e)};
  }
  if (Answer a = call_candidate(inputs, slots, plain_out); !a.ok) return ended_by(result, a);
  const Tolerance tolerance = task_.tolerance_for(result.dtype);
  Outputs zeros;
  bool zeros_say_something = false;
  for (const auto& e : expected) {
    zeros.push_back(at::zeros_like(e));
    zeros_say_something = zeros_say_something || (e.numel() > 0 && at::isFloatingType(e.scalar_type()));
  }
  if (zeros_say_something && compare_all(expected, zeros, tolerance, false, task_.contract, task_.quantization).ok)
    report_.reference_notes.push_back("an output of zeros matches the reference's output within tolerance");
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (!at::isFloatingType(inputs[i].scalar_type()) || (i < specs_->size() && (*specs_)[i].fill == Fill::keep))
      continue;
    const std::string name = "get_inputs()[" + std::to_string(i) + "]";
    std::vector<at::Tensor> redrawn = inputs;
    redrawn[i] = (*other)[i];
    std::vector<at::Tensor> poisoned = inputs;
    poisoned[i] = at::full_like(inputs[i], std::numeric_limits<double>::quiet_NaN());
    Outputs reference_redrawn;
    Outputs reference_poisoned;
    try {
      reference_redrawn = reference_output(helper, model, redrawn);
    } catch (const py::error_already_set& e) {
      return Error{"the reference failed: " + embed::error_text(e)};
    }
    if (compare_all(expected, reference_redrawn, tolerance, false, task_.contract, task_.quantization).ok)
      report_.reference_notes.push_back(
          "reference-independent-of-input: the reference's output stays within tolerance when " + name +
          " is drawn afresh");
    try {
      reference_poisoned = reference_output(helper, model, poisoned);
    } catch (const py::error_already_set& e) {
      // An eigensolver or a factorisation may refuse NaN: then NaN tells nothing about this input.
      report_.reference_notes.push_back("the reference raises with " + name + " all NaN (" + embed::error_text(e) +
                                        "): whether the candidate reads it was not probed");
      continue;
    }
    if (same_outputs(reference_poisoned, expected)) continue;
    Outputs poisoned_out;
    Answer answer = call_candidate(poisoned, slots, poisoned_out);
    // A candidate that stops on NaN input reacted to it; a timeout or a sandbox violation is a verdict.
    if (!answer.ok && answer.verdict == Verdict::crashed && answer.reason.id == "crashed" && worker_.alive()) continue;
    if (!answer.ok) return ended_by(result, answer);
    if (same_outputs(poisoned_out, plain_out)) {
      result.verdict = Verdict::fail;
      result.reason = Reason{"ignores-input", "with " + name +
                                                  " all NaN the output is exactly what it was, while the "
                                                  "reference's output changes: the submission never reads that input"};
      return true;
    }
  }
  return true;
}

Status Judge::finish_with(const Answer& answer, std::size_t shape_index, bool hidden, const ShapeSet& shapes,
                          DType dtype) {
  CaseResult result;
  result.shape_index = shape_index;
  result.hidden_shape = hidden;
  result.shapes = shapes;
  result.dtype = dtype;
  result.verdict = answer.verdict;
  result.reason = answer.reason;
  report_.cases.push_back(std::move(result));
  return Status::ok();
}

// The input contract for the shape set whose globals build_models() just set: the manifest's, or for
// a task without one what kContractDraws get_inputs() draws under secret seeds keep (read once per
// shape set). The first shape set's goes into the report.
Status Judge::settle_contract(py::module_& helper, py::object& reference, const ShapeSet& shapes, DType dtype) {
  if (!task_.bare_kernelbench) {
    specs_ = &task_.inputs;
  } else if (auto known = contracts_.find(shapes); known != contracts_.end()) {
    specs_ = &known->second;
  } else {
    std::vector<std::vector<at::Tensor>> draws;
    try {
      for (int i = 0; i < kContractDraws; ++i) draws.push_back(draw_structure(helper, reference, dtype));
    } catch (const py::error_already_set& e) {
      return Error{"the reference's get_inputs failed: " + embed::error_text(e)};
    }
    specs_ = &contracts_.emplace(shapes, infer_input_specs(draws)).first->second;
  }
  if (report_.inputs.empty()) report_.inputs = *specs_;
  return Status::ok();
}

// One get_inputs() call under a secret seed, on the run's device, floating tensors in the run's dtype.
std::vector<at::Tensor> Judge::draw_structure(py::module_& helper, py::object& reference, DType dtype) {
  py::list structure_list =
      helper.attr("input_structure")(reference, secret_u64() >> 1, std::string(dtype_name(dtype)), options_.device);
  std::vector<at::Tensor> structure;
  for (auto item : structure_list) structure.push_back(embed::unwrap(item));
  return structure;
}

// Fresh inputs: get_inputs()'s structure under a secret seed, values drawn from the distribution.
Result<std::vector<at::Tensor>> Judge::make_inputs(py::module_& helper, py::object& reference, DType dtype,
                                                   Distribution distribution) {
  try {
    const std::vector<at::Tensor> structure = draw_structure(helper, reference, dtype);
    InputOptions input_options = options_.input_options;
    input_options.special_values = task_.special_values;
    return fill_inputs(structure, *specs_, distribution, secret_u64(), input_options);
  } catch (const py::error_already_set& e) {
    return Error{"the reference's get_inputs failed: " + embed::error_text(e)};
  }
}

Result<bool> Judge::run_case(py::module_& helper, py::object& reference, py::object& model, CaseResult& result,
                             bool check_determinism, CallMeasure* measure) {
  std::vector<at::Tensor> inputs;
  Outputs expected;
  result.reference_first = (secret_u64() & 1) != 0;
  std::string reference_oom;  // the reference ran out of GPU memory: the harness's limit, not a verdict
  const auto run_reference = [&]() -> Status {
    try {
      py::list clones;
      for (const auto& t : inputs) clones.append(embed::wrap(t.clone()));
      if (!measure) {
        expected = embed::unwrap_all(helper.attr("run_reference")(model, clones));
        return Status::ok();
      }
      auto timed = time_reference(helper, model, clones, expected);
      if (!timed) return Error{timed.error()};
      measure->reference = *timed;
    } catch (const py::error_already_set& e) {
      const std::string text = embed::error_text(e);
      if (!out_of_memory(text)) return Error{"the reference failed: " + text};
      reference_oom = text;
    }
    return Status::ok();
  };
  const auto reference_ran_out = [&]() {
    result.verdict = Verdict::harness_error;
    result.reason = Reason{"out-of-memory", "the reference ran out of GPU memory: " + reference_oom};
    return true;
  };
  {
    auto made = make_inputs(helper, reference, result.dtype, result.distribution);
    if (!made) return Error{made.error()};
    inputs = std::move(*made);
  }
  std::vector<at::Tensor> originals;
  for (const auto& t : inputs) originals.push_back(t.clone());

  if (result.reference_first) {
    if (Status s = run_reference(); !s) return Error{s.message()};
    if (!reference_oom.empty()) return reference_ran_out();
  }
  std::vector<TensorSlot> slots;
  Outputs outputs;
  Answer answer = call_candidate(inputs, slots, outputs);
  if (!answer.ok) return ended_by(result, answer);
  const json measured = answer.body.value("measured", json::object());
  if (measure) {
    measure->round_trip_s = answer.round_trip_s;
    measure->candidate = timed_call_from(measured);
  }
  if (!result.reference_first) {
    if (Status s = run_reference(); !s) return Error{s.message()};
    if (!reference_oom.empty()) return reference_ran_out();
  }

  const auto fail = [&](Reason reason) {
    result.verdict = Verdict::fail;
    result.reason = std::move(reason);
    return true;
  };
  // A reason about one tensor of a tuple names it ("output[1]: ...").
  const auto fail_output = [&](Reason reason, std::size_t i) {
    if (outputs.size() > 1) reason.message = output_name(outputs, i) + ": " + reason.message;
    return fail(std::move(reason));
  };
  const json& body = answer.body;
  // Aliasing first: a view of an input is also not plain, and aliasing is the more precise reason.
  std::vector<StorageRange> input_ranges;
  for (const auto& r : body.value("input_ranges", json::array()))
    input_ranges.push_back({r.at(0).get<std::uintptr_t>(), r.at(1).get<std::uintptr_t>()});
  const json devices = body.value("output_devices", json::array());
  const json all_facts = body.value("facts", json::array());
  // The structure (a tuple of two tensors, one tensor) is the task checker's business; the count is ours.
  if (outputs.size() != expected.size() || devices.size() != outputs.size() || all_facts.size() != outputs.size())
    return fail({"shape-mismatch", "the output has " + std::to_string(outputs.size()) + " tensor(s), the reference's " +
                                       std::to_string(expected.size())});
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const std::string out_device = devices[i].is_string() ? devices[i].get<std::string>() : std::string();
    if (out_device.rfind(options_.device, 0) != 0)
      return fail({"device-mismatch",
                   "the " + output_name(outputs, i) + " is on " + out_device + ", the run is on " + options_.device});
    const json& facts_json = all_facts[i];
    OutputFacts facts{};
    facts.exact_tensor_type = facts_json.value("exact_tensor_type", false);
    facts.overridden_methods = facts_json.value("overridden_methods", std::vector<std::string>{});
    facts.has_torch_function_override = facts_json.value("has_torch_function_override", true);
    facts.is_contiguous = facts_json.value("is_contiguous", false);
    facts.is_dense = facts_json.value("is_dense", false);
    facts.owns_storage_exactly = facts_json.value("owns_storage_exactly", false);
    facts.storage = {facts_json.value("storage_begin", std::uintptr_t{0}),
                     facts_json.value("storage_end", std::uintptr_t{0})};
    if (auto reason = check_aliasing(facts.storage, input_ranges)) return fail_output(*reason, i);
    if (auto reason = check_output_plain(facts, expected[i].is_contiguous())) return fail_output(*reason, i);
  }
  std::vector<at::Tensor> after;
  for (const auto& slot : slots) after.push_back(*slot_view(arena_, slot));  // read only, before the next call
  if (auto reason = check_inputs_unchanged(originals, after)) return fail(*reason);
  for (std::size_t i = 0; i < outputs.size(); ++i)
    if (auto reason = check_poison_read(outputs[i])) return fail_output(*reason, i);
  // The kernels the call ran are evidence about how it computed, whatever its output: a forbidden
  // library kernel or no kernel of its own is the more precise reason than a numerical mismatch.
  std::optional<Trace> call_trace;
  if (measured.contains("trace")) {
    auto trace = trace_from_json(measured["trace"]);
    if (!trace) return fail({"malformed-trace", trace.error()});
    // A case whose expected output is a copy of an input (reversing one element in place) needs no kernel.
    if (!trace->kernels.empty() || !outputs_copy_inputs(expected, originals))
      if (auto reason = check_kernels_ran(*trace, kernels_)) return fail(*reason);
    if (measured.contains("stream") && measured["stream"].is_number_unsigned())
      if (auto reason = check_unjoined_work(*trace, measured["stream"].get<std::uint32_t>())) return fail(*reason);
    // Library kernels per call; the own-kernel share is judged on the timed series (a small shape's
    // share says little).
    TaskPolicy library_only = task_.policy;
    library_only.min_own_kernel_share.reset();
    if (auto reason = check_kernel_policy(library_only, summarize_kernels(*trace, kernels_), 1.0)) return fail(*reason);
    call_trace = std::move(*trace);
  }
  const bool huge = result.distribution == Distribution::huge;
  const Tolerance tolerance = task_.tolerance_for(result.dtype);
  CompareResult compared = compare_all(expected, outputs, tolerance, huge, task_.contract, task_.quantization);
  // A reference in fp16/bf16 rounds after every op; an honest kernel that keeps fp32 registers and
  // rounds once can be further from it than the tolerance where the arithmetic cancels (seen on an
  // H100: a degree-7 Horner polynomial, |error| 24 in the fp16 reference). Such an output is judged
  // again against the reference run in fp32 from the same (exactly widened) inputs and parameters,
  // rounded once to the run's dtype; it passes if either comparison does.
  if (!compared.ok && (compared.reason_id == "mismatch" || compared.reason_id == "norm-mismatch") &&
      (result.dtype == DType::fp16 || result.dtype == DType::bf16)) {
    try {
      py::list widened;
      for (const auto& t : originals) widened.append(embed::wrap(t.clone()));
      Outputs precise = embed::unwrap_all(helper.attr("run_reference_fp32")(model, widened));
      for (std::size_t i = 0; i < precise.size() && i < expected.size(); ++i)
        precise[i] = precise[i].to(expected[i].scalar_type());
      CompareResult again = compare_all(precise, outputs, tolerance, huge, task_.contract, task_.quantization);
      if (again.ok) {
        compared = std::move(again);
        result.matched_fp32_reference = true;
      }
    } catch (const py::error_already_set& e) {
      return Error{"the reference failed in fp32: " + embed::error_text(e)};
    }
  }
  judge_by_task_checker(helper, reference, model, originals, body.value("structure", std::string()), outputs, compared,
                        result);
  result.max_abs_err = compared.max_abs_err;
  result.max_rel_err = compared.max_rel_err;
  result.norm_err_ratio = compared.norm_err_ratio;
  result.mismatches = compared.mismatches;
  if (!compared.ok) {
    for (std::size_t i = 0; i < outputs.size() && i < expected.size(); ++i)
      if (auto reason = check_added_onto_poison(expected[i], outputs[i])) return fail_output(*reason, i);
    // The previous call's output again, for new inputs: a cached result (T11-T13), not arithmetic.
    if (same_outputs(previous_output_, outputs))
      return fail({"stale-output",
                   "the output equals the previous call's output for different inputs (" + compared.message + ")"});
    // A candidate that kept its own parameters computes with values the reference no longer has.
    if (!not_copied_.empty())
      return fail({compared.reason_id, compared.message +
                                           " (the reference's parameters were redrawn under the secret seed; the "
                                           "candidate kept its own: " +
                                           not_copied_ + ")"});
    return fail({compared.reason_id, compared.message});
  }
  previous_output_ = outputs;
  // The rest of the call's GPU evidence: nothing is pinned in L2, and no work escaped the current
  // stream. Only a right output gets this far.
  if (call_trace && measure) measure->trace = std::move(*call_trace);
  if (auto reason = check_l2_pinning(l2_from(measured), "the call")) return fail(*reason);
  if (auto timed = timed_call_from(measured)) {
    if (auto reason = check_side_stream(*timed)) {
      // Confirmed on a second call with the same inputs: a side stream left running is there on every
      // call, while a busy host (other runs compiling on the machine) can delay the worker's thread
      // between its two marks once (seen on an H200 with four runs at once: three honest candidates).
      std::vector<TensorSlot> again_slots;
      Outputs again_outputs;
      Answer again = call_candidate(originals, again_slots, again_outputs);
      if (!again.ok) return ended_by(result, again);
      const auto second = timed_call_from(again.body.value("measured", json::object()));
      if (!second || check_side_stream(*second)) return fail(*reason);
    }
  }
  if (check_determinism) {
    result.determinism_checked = true;
    Outputs second;
    Answer again = call_candidate(originals, slots, second);
    if (!again.ok) return ended_by(result, again);
    if (second.size() != outputs.size())
      return fail({"nondeterministic", "the same inputs gave " + std::to_string(outputs.size()) + " and then " +
                                           std::to_string(second.size()) + " output tensor(s)"});
    for (std::size_t i = 0; i < outputs.size(); ++i)
      if (auto reason = check_deterministic(outputs[i], second[i])) return fail_output(*reason, i);
  }
  return true;
}

void Judge::judge_by_task_checker(py::module_& helper, py::object& reference, py::object& model,
                                  const std::vector<at::Tensor>& inputs, const std::string& structure,
                                  const Outputs& outputs, CompareResult& compared, CaseResult& result) {
  if (!own_checker_) own_checker_ = helper.attr("has_own_checker")(reference).cast<bool>();
  if (!*own_checker_) return;
  bool accepted = false;
  std::string message;
  try {
    py::list wrapped_inputs;
    for (const auto& t : inputs) wrapped_inputs.append(embed::wrap(t));
    py::list wrapped_outputs;
    for (const auto& t : outputs) wrapped_outputs.append(embed::wrap(t));
    py::tuple verdict = helper.attr("task_check")(reference, model, wrapped_inputs, structure, wrapped_outputs);
    accepted = verdict[0].cast<bool>();
    message = verdict[1].cast<std::string>();
    message = "the task's check_implementation rejects the output" + (message.empty() ? "" : ": " + message);
  } catch (const py::error_already_set& e) {
    // The checker reads the candidate's output (unpacks it, indexes it): an output it cannot read is the
    // output's fault. (The domain check has run the checker on the reference's own output already.)
    message = "the task's check_implementation raised on the output: " + embed::error_text(e);
  }
  if (accepted && !compared.ok) {
    compared.ok = true;
    result.accepted_by_task_checker = true;
  } else if (!accepted && compared.ok) {
    compared.ok = false;
    compared.reason_id = "task-check-failed";
    compared.message = message;
  }
}

}  // namespace kgate::runtime::detail
