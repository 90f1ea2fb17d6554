// The judge's domain check: whether the runtime's own input values leave the task's domain. A task whose
// inputs are, say, symmetric positive-definite matrices (GPU MODE's cholesky) gets a NaN factor from the
// reference on values the distributions draw (or garbage its own checker rejects), and an honest kernel
// may even raise there; comparing such outputs judges nothing. Once per run, on the first shape set and
// dtype: when the task's own draw is in the domain (kgate_judge.in_domain: a finite reference output that
// a GPU MODE task's check_implementation accepts) and a `normal` draw is not (or the reference fails), the
// runtime's distributions are skipped and the task's own draws under secret seeds (Distribution::task)
// run in their place; the input probe and the timing phase draw from them too. A task whose normal draws
// stay in the domain runs as it always did.
#include <optional>
#include <vector>

#include "runtime/embed.h"
#include "runtime/judge_session.h"

namespace kgate::runtime::detail {

void Judge::check_domain(py::module_& helper, py::object& reference, py::object& model, DType dtype) {
  domain_checked_ = true;
  distributions_ = options_.distributions;
  // Whether inputs of this distribution (nullopt: the task's own draw) are in the domain (false where the
  // reference raises: torch.linalg.cholesky on a matrix that is not positive definite). An error the
  // cases would report anyway (out of memory, get_inputs itself failing) leaves the decision to them.
  const auto in_domain = [&](std::optional<Distribution> distribution) -> std::optional<bool> {
    std::vector<at::Tensor> inputs;
    if (distribution) {
      auto made = make_inputs(helper, reference, dtype, *distribution);
      if (!made) return std::nullopt;
      inputs = std::move(*made);
    } else {
      try {
        inputs = draw_structure(helper, reference, dtype);
      } catch (const py::error_already_set&) {
        return std::nullopt;
      }
    }
    try {
      py::list wrapped;
      for (const auto& t : inputs) wrapped.append(embed::wrap(t));
      return helper.attr("in_domain")(reference, model, wrapped).cast<bool>();
    } catch (const py::error_already_set& e) {
      if (out_of_memory(embed::error_text(e)) || !distribution) return std::nullopt;
      return false;
    }
  };
  if (in_domain(std::nullopt) != std::optional<bool>{true}) return;
  if (in_domain(Distribution::normal) != std::optional<bool>{false}) return;

  // The other distributions draw the same contract as normal at other magnitudes, or plant values into
  // normal draws: none keeps a structure normal loses (a checker's atol may still accept tiny values).
  std::vector<Distribution> kept{Distribution::task};
  for (const Distribution d : options_.distributions) {
    if (d == Distribution::task) continue;
    report_.skipped.push_back(
        {d, d == Distribution::normal
                ? "the reference's output on these values is not finite or fails the task's checker (or the "
                  "reference fails), and on the task's own inputs it is fine: the inputs have a domain these "
                  "values leave; the task's own draws under secret seeds run instead"
                : "drawn like normal (the same input contract at other magnitudes, or with values planted into "
                  "normal draws), which leaves the task's domain"});
  }
  distributions_ = std::move(kept);
  base_distribution_ = Distribution::task;
}

}  // namespace kgate::runtime::detail
