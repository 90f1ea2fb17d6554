// Inline SVG plots for the audit report: histograms of metric values and the roofline scatter.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace kgate::audit {

// A histogram of `values` in `bins` equal-width bins between their minimum and maximum (one bin
// when all are equal), with axis labels; `title` is shown above. Empty values give an empty string.
std::string svg_histogram(const std::string& title, const std::vector<double>& values, int bins = 20,
                          bool log_x = false);

struct RooflinePoint {
  std::string label;     // the file's path (a tooltip)
  double intensity = 0;  // FLOP per byte moved
  double gflops = 0;     // achieved GFLOP/s
};

// Log-log roofline: one dot per point, and the roof min(peak_gflops, peak_gbps * intensity) when
// both peaks are known. Points with non-positive coordinates are left out.
std::string svg_roofline(const std::vector<RooflinePoint>& points, std::optional<double> peak_gflops,
                         std::optional<double> peak_gbps);

}  // namespace kgate::audit
