// SVG emission for the report's plots: fixed-size charts, numbers formatted compactly.
#include "analyzers/audit/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "analyzers/audit/html_escape.h"

namespace kgate::audit {

namespace {

constexpr double kWidth = 360, kHeight = 210;
constexpr double kLeft = 44, kRight = 12, kTop = 26, kBottom = 34;
constexpr double kPlotW = kWidth - kLeft - kRight, kPlotH = kHeight - kTop - kBottom;

std::string num(double value) {
  char buffer[32];
  if (value != 0 && (std::fabs(value) >= 1e6 || std::fabs(value) < 1e-2))
    std::snprintf(buffer, sizeof buffer, "%.2g", value);
  else if (value == std::floor(value) || std::fabs(value) >= 100)
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
  else
    std::snprintf(buffer, sizeof buffer, "%.3g", value);
  return buffer;
}

std::string coord(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", value);
  return buffer;
}

std::string open_svg(const std::string& title) {
  return "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" + coord(kWidth) + "\" height=\"" +
         coord(kHeight) + "\" viewBox=\"0 0 " + coord(kWidth) + " " + coord(kHeight) + "\" role=\"img\" aria-label=\"" +
         html_escape(title) + "\">" + "<text class=\"plot-title\" x=\"" + coord(kLeft) + "\" y=\"16\">" +
         html_escape(title) + "</text>" + "<line class=\"axis\" x1=\"" + coord(kLeft) + "\" y1=\"" +
         coord(kTop + kPlotH) + "\" x2=\"" + coord(kLeft + kPlotW) + "\" y2=\"" + coord(kTop + kPlotH) + "\"/>" +
         "<line class=\"axis\" x1=\"" + coord(kLeft) + "\" y1=\"" + coord(kTop) + "\" x2=\"" + coord(kLeft) +
         "\" y2=\"" + coord(kTop + kPlotH) + "\"/>";
}

std::string label(double x, double y, const std::string& text, const char* anchor) {
  return "<text class=\"tick\" x=\"" + coord(x) + "\" y=\"" + coord(y) + "\" text-anchor=\"" + anchor + "\">" +
         html_escape(text) + "</text>";
}

// Log-scale axis mapping over [lo, hi] (positive), onto [from, to] in pixels.
struct LogAxis {
  double lo, hi, from, to;
  double operator()(double v) const {
    return from + (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)) * (to - from);
  }
};

}  // namespace

std::string svg_histogram(const std::string& title, const std::vector<double>& values, int bins, bool log_x) {
  std::vector<double> xs;
  for (double v : values)
    if (std::isfinite(v) && (!log_x || v > 0)) xs.push_back(log_x ? std::log10(v) : v);
  if (xs.empty() || bins < 1) return {};
  const auto [min_it, max_it] = std::minmax_element(xs.begin(), xs.end());
  double lo = *min_it, hi = *max_it;
  // Counts (integers over a short range) get one bin per value, centred on it.
  const bool integral = !log_x && std::all_of(xs.begin(), xs.end(), [](double x) { return x == std::floor(x); });
  if (integral && hi - lo < bins) {
    bins = static_cast<int>(hi - lo) + 1;
    lo -= 0.5, hi += 0.5;
  } else if (hi == lo) {
    bins = 1;
  }
  std::vector<size_t> counts(static_cast<size_t>(bins), 0);
  for (double x : xs) {
    const auto bin =
        hi == lo ? 0 : static_cast<size_t>(std::min<double>(bins - 1, std::floor((x - lo) / (hi - lo) * bins)));
    ++counts[bin];
  }
  const size_t tallest = *std::max_element(counts.begin(), counts.end());
  const auto shown = [&](double x) { return log_x ? std::pow(10.0, x) : x; };

  std::string svg = open_svg(title);
  const double bar_w = kPlotW / bins;
  for (int b = 0; b < bins; ++b) {
    const size_t count = counts[static_cast<size_t>(b)];
    if (count == 0) continue;
    const double h = kPlotH * static_cast<double>(count) / static_cast<double>(tallest);
    const double from = lo + (hi - lo) * b / bins, to = lo + (hi - lo) * (b + 1) / bins;
    svg += "<rect class=\"bar\" x=\"" + coord(kLeft + b * bar_w + 0.5) + "\" y=\"" + coord(kTop + kPlotH - h) +
           "\" width=\"" + coord(std::max(1.0, bar_w - 1)) + "\" height=\"" + coord(h) + "\"><title>" +
           std::to_string(count) + " file(s) in [" + html_escape(num(shown(from))) + ", " +
           html_escape(num(shown(to))) + "]</title></rect>";
  }
  if (integral && static_cast<double>(bins) == hi - lo) {
    // One label under each value's bar, thinned to at most ten.
    const int step = (bins + 9) / 10;
    for (int b = 0; b < bins; b += step)
      svg += label(kLeft + (b + 0.5) * bar_w, kTop + kPlotH + 14, num(lo + 0.5 + b), "middle");
  } else {
    svg += label(kLeft, kTop + kPlotH + 14, num(shown(lo)), "start");
    svg += label(kLeft + kPlotW, kTop + kPlotH + 14, num(shown(hi)), "end");
    if (hi != lo) svg += label(kLeft + kPlotW / 2, kTop + kPlotH + 14, num(shown((lo + hi) / 2)), "middle");
  }
  svg += label(kLeft - 4, kTop + 8, std::to_string(tallest), "end");
  svg += label(kLeft - 4, kTop + kPlotH, "0", "end");
  svg += label(kLeft + kPlotW / 2, kHeight - 4, std::to_string(xs.size()) + " files" + (log_x ? " (log scale)" : ""),
               "middle");
  return svg + "</svg>";
}

std::string svg_roofline(const std::vector<RooflinePoint>& points, std::optional<double> peak_gflops,
                         std::optional<double> peak_gbps) {
  std::vector<const RooflinePoint*> shown;
  for (const auto& p : points)
    if (std::isfinite(p.intensity) && std::isfinite(p.gflops) && p.intensity > 0 && p.gflops > 0) shown.push_back(&p);
  if (shown.empty()) return {};
  const bool roof = peak_gflops && peak_gbps && *peak_gflops > 0 && *peak_gbps > 0;
  double x_lo = shown.front()->intensity, x_hi = x_lo, y_lo = shown.front()->gflops, y_hi = y_lo;
  for (const auto* p : shown) {
    x_lo = std::min(x_lo, p->intensity), x_hi = std::max(x_hi, p->intensity);
    y_lo = std::min(y_lo, p->gflops), y_hi = std::max(y_hi, p->gflops);
  }
  if (roof) {
    const double ridge = *peak_gflops / *peak_gbps;
    x_lo = std::min(x_lo, ridge), x_hi = std::max(x_hi, ridge);
    y_hi = std::max(y_hi, *peak_gflops);
  }
  // Whole decades around the data.
  x_lo = std::pow(10.0, std::floor(std::log10(x_lo))), x_hi = std::pow(10.0, std::ceil(std::log10(x_hi) + 1e-9));
  y_lo = std::pow(10.0, std::floor(std::log10(y_lo))), y_hi = std::pow(10.0, std::ceil(std::log10(y_hi) + 1e-9));
  const LogAxis x{x_lo, x_hi, kLeft, kLeft + kPlotW};
  const LogAxis y{y_lo, y_hi, kTop + kPlotH, kTop};

  std::string svg = open_svg("roofline: GFLOP/s against FLOP/byte");
  for (double d = x_lo; d <= x_hi * 1.0001; d *= 10) svg += label(x(d), kTop + kPlotH + 14, num(d), "middle");
  for (double d = y_lo; d <= y_hi * 1.0001; d *= 10) svg += label(kLeft - 4, y(d) + 4, num(d), "end");
  if (roof) {
    // The roof: bandwidth-bound slope up to the ridge, then flat at the compute peak.
    const double ridge = *peak_gflops / *peak_gbps;
    const double start_x = std::max(x_lo, y_lo / *peak_gbps);
    svg += "<polyline class=\"roof\" points=\"" + coord(x(start_x)) + "," + coord(y(*peak_gbps * start_x)) + " " +
           coord(x(ridge)) + "," + coord(y(*peak_gflops)) + " " + coord(x(x_hi)) + "," + coord(y(*peak_gflops)) +
           "\"><title>peak " + html_escape(num(*peak_gflops)) + " GFLOP/s, " + html_escape(num(*peak_gbps)) +
           " GB/s</title></polyline>";
  }
  for (const auto* p : shown)
    svg += "<circle class=\"dot\" cx=\"" + coord(x(p->intensity)) + "\" cy=\"" + coord(y(p->gflops)) +
           "\" r=\"3.5\"><title>" + html_escape(p->label) + ": " + html_escape(num(p->intensity)) + " FLOP/B, " +
           html_escape(num(p->gflops)) + " GFLOP/s</title></circle>";
  svg += label(kLeft + kPlotW / 2, kHeight - 4, std::to_string(shown.size()) + " files (log-log)", "middle");
  return svg + "</svg>";
}

}  // namespace kgate::audit
