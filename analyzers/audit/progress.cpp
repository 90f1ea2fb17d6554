// Progress line rendering: carriage return and redraw, throttled.
#include "analyzers/audit/progress.h"

#include <cmath>
#include <cstdio>

namespace kgate::audit {

namespace {

std::string duration_text(double seconds) {
  const auto total = static_cast<long long>(std::llround(seconds));
  char buffer[32];
  if (total >= 3600)
    std::snprintf(buffer, sizeof buffer, "%lldh%02lldm", total / 3600, (total % 3600) / 60);
  else if (total >= 60)
    std::snprintf(buffer, sizeof buffer, "%lldm%02llds", total / 60, total % 60);
  else
    std::snprintf(buffer, sizeof buffer, "%llds", total);
  return buffer;
}

}  // namespace

ProgressBar::ProgressBar(std::ostream& out, size_t total, bool enabled) : out_(out), total_(total), enabled_(enabled) {}

std::string ProgressBar::line(size_t done, size_t total, double seconds) {
  constexpr size_t width = 30;
  const size_t filled = total == 0 ? width : std::min(width, done * width / total);
  std::string bar = "[" + std::string(filled, '#') + std::string(width - filled, ' ') + "]";
  const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0.0;
  char tail[96];
  std::snprintf(tail, sizeof tail, " %zu/%zu  %.1f files/s  ETA ", done, total, rate);
  const std::string eta =
      rate > 0 ? duration_text(static_cast<double>(total - std::min(done, total)) / rate) : std::string("?");
  return bar + tail + eta;
}

void ProgressBar::draw(bool force) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (!force && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  out_ << "\r" << line(done_, total_, seconds) << "\x1b[K" << std::flush;
}

void ProgressBar::tick() {
  ++done_;
  draw(done_ == total_);
}

void ProgressBar::finish() {
  if (!enabled_) return;
  draw(true);
  out_ << "\n" << std::flush;
}

}  // namespace kgate::audit
