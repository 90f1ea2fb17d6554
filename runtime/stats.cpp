// Summary statistics of timing samples.
#include "runtime/stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

namespace kgate::runtime {

double quantile_sorted(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0.0;
  const double position = std::clamp(q, 0.0, 1.0) * static_cast<double>(sorted.size() - 1);
  const auto lower = static_cast<std::size_t>(std::floor(position));
  const auto upper = std::min(lower + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(lower);
  return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction;
}

double median(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  return quantile_sorted(samples, 0.5);
}

Result<SampleSummary> summarize(std::vector<double> samples) {
  if (samples.empty()) return Error{"no timing samples"};
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (!std::isfinite(samples[i]) || samples[i] < 0.0) {
      return Error{"timing sample " + std::to_string(i) + " is " + std::to_string(samples[i]) +
                   ": a time must be finite and not negative"};
    }
  }
  std::sort(samples.begin(), samples.end());
  SampleSummary s;
  s.count = samples.size();
  s.min = samples.front();
  s.max = samples.back();
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(s.count);
  if (s.count > 1) {
    double squares = 0.0;
    for (double x : samples) squares += (x - s.mean) * (x - s.mean);
    s.stddev = std::sqrt(squares / static_cast<double>(s.count - 1));
  }
  s.median = quantile_sorted(samples, 0.5);
  s.q1 = quantile_sorted(samples, 0.25);
  s.q3 = quantile_sorted(samples, 0.75);
  s.iqr = s.q3 - s.q1;
  s.cv = s.mean > 0.0 ? s.stddev / s.mean : 0.0;
  return s;
}

}  // namespace kgate::runtime
