// Input generation for differential testing: refills the tensors get_inputs() returned with values from
// one distribution (normal, uniform, outlier, special, tiny, huge), per each input's contract (its
// fill kind and pattern, stated by the task's manifest or inferred by runtime/input_contract.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <ATen/core/Tensor.h>

#include "runtime/task.h"

namespace kgate::runtime {

// `task` is no draw of the runtime's: every input keeps the values get_inputs() (GPU MODE:
// generate_input) made under the case's secret seed. The judge runs it where the other distributions
// leave the task's domain (Judge::check_domain); it is not among all_distributions().
enum class Distribution { normal, uniform, outlier, special, tiny, huge, task };
std::string_view distribution_name(Distribution);
std::optional<Distribution> parse_distribution(std::string_view);  // "normal", "uniform", ...
const std::vector<Distribution>& all_distributions();

struct InputOptions {
  double outlier_p = 0.001;                 // each element independently becomes an outlier with this probability
  double outlier_scale = 50.0;              // an outlier is a standard normal draw times this scale
  std::vector<std::string> special_values;  // "inf", "nan" where the task declares them (±0 always)
};

// structure: what get_inputs() returned (already on the run's device, floating tensors already in the run's dtype).
// Floating tensors are refilled per InputSpec::fill and the distribution; others are kept. Deterministic in seed.
std::vector<at::Tensor> fill_inputs(const std::vector<at::Tensor>& structure, const std::vector<InputSpec>& specs,
                                    Distribution, std::uint64_t seed, const InputOptions&);

// Why a distribution cannot be drawn while keeping every input's contract (a [0, 1) input has no huge
// values), or nothing when it can. The judge skips such a distribution and records the reason.
std::optional<std::string> distribution_conflict(const std::vector<InputSpec>& specs, Distribution);

// The magnitudes the tiny and huge distributions draw around, for a floating dtype (see inputs.cpp for why).
double tiny_magnitude(at::ScalarType);
double huge_magnitude(at::ScalarType);

}  // namespace kgate::runtime
