// The progress line of `kgate audit` on a terminal: a bar, files done, files/s and ETA.
#pragma once

#include <chrono>
#include <cstddef>
#include <ostream>
#include <string>

namespace kgate::audit {

class ProgressBar {
 public:
  // `total` files to analyse in this run (those skipped as done are not counted); `enabled` false
  // prints nothing (stderr is not a terminal).
  ProgressBar(std::ostream& out, size_t total, bool enabled);
  void tick();    // one more file done; redraws at most ten times a second
  void finish();  // final redraw and newline

  // The line for `done` of `total` after `seconds` (without the carriage return); for tests.
  static std::string line(size_t done, size_t total, double seconds);

 private:
  void draw(bool force);
  std::ostream& out_;
  size_t total_;
  size_t done_ = 0;
  bool enabled_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_draw_{};
};

}  // namespace kgate::audit
