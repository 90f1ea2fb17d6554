// The formulas of docs/metrics.md ("Derived measures"), in one place for every language.
#include "analyzers/metrics/maintainability.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace kgate::metrics {

void finish(CodeMetrics& m, double comment_percent) {
  const auto length = static_cast<double>(m.operators_total + m.operands_total);
  const auto vocabulary = static_cast<double>(m.operators_distinct + m.operands_distinct);
  // log(x) / log(2) rather than log2(x): the reference (radon) computes it so, and agreement is tested.
  m.halstead_volume = vocabulary > 0 ? length * (std::log(vocabulary) / std::log(2.0)) : 0.0;
  m.halstead_difficulty = m.operands_distinct > 0 ? static_cast<double>(m.operators_distinct * m.operands_total) /
                                                        static_cast<double>(2 * m.operands_distinct)
                                                  : 0.0;
  m.halstead_effort = m.halstead_difficulty * m.halstead_volume;
  if (m.halstead_volume <= 0 || m.lloc <= 0) {
    // Nothing to maintain (no operators, or no logical lines): the best score, as radon reports it.
    m.mi_original = 171.0;
    m.mi_normalized = 100.0;
    m.mi_comments = 100.0;
  } else {
    m.mi_original = 171.0 - 5.2 * std::log(m.halstead_volume) - 0.23 * static_cast<double>(m.cyclomatic) -
                    16.2 * std::log(static_cast<double>(m.lloc));
    m.mi_normalized = std::clamp(m.mi_original * 100.0 / 171.0, 0.0, 100.0);
    const double radians = comment_percent * std::numbers::pi / 180.0;
    const double with_comments = m.mi_original + 50.0 * std::sin(std::sqrt(2.46 * radians));
    m.mi_comments = std::clamp(with_comments * 100.0 / 171.0, 0.0, 100.0);
  }
  m.measured = true;
}

}  // namespace kgate::metrics
