// Summary statistics of timing samples: median, quartiles, IQR and coefficient of variation.
#pragma once

#include <cstddef>
#include <vector>

#include "analyzers/core/status.h"

namespace kgate::runtime {

struct SampleSummary {
  std::size_t count = 0;
  double min = 0.0;
  double max = 0.0;
  double mean = 0.0;
  double stddev = 0.0;  // sample standard deviation (n - 1); 0 for one sample
  double median = 0.0;
  double q1 = 0.0;
  double q3 = 0.0;
  double iqr = 0.0;  // q3 - q1
  double cv = 0.0;   // stddev / mean: the run-to-run noise of a timing
};

// Quantile q in [0, 1] of sorted samples, linearly interpolated between order statistics.
double quantile_sorted(const std::vector<double>& sorted, double q);
double median(std::vector<double> samples);

// An error for no samples, or a sample that is negative, NaN or infinite.
Result<SampleSummary> summarize(std::vector<double> samples);

}  // namespace kgate::runtime
