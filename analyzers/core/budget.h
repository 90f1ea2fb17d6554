// Per-file limits on analysis time and memory (issue 8 "Limits"), checked deep inside the parsers
// and extractors without being passed through every signature: the pipeline opens one FileBudget
// per file on the thread that analyses it, and code below asks the thread's current budget.
//
// Memory is an accounting limit, not a cap on the process: it counts what tree-sitter allocates on
// this thread (through ts_set_allocator hooks, net of what it frees), what the constant folder
// builds (embedded source text and its source map), and what Clang's AST holds for each module.
// Time is the CPU time of the analysing thread since the budget opened, with that of the helper processes
// it waited on (not wall-clock: a verdict must not change with the machine's load). Once either is spent the budget
// stays exhausted, every check along the way answers true, and the pipeline reports one input-* finding.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace kgate {

enum class BudgetOverrun { None, Time, Memory };

class FileBudget {
 public:
  // 0 for a limit means unlimited. Installs itself as this thread's current budget until destroyed.
  FileBudget(uint32_t max_ms, uint64_t max_bytes);
  ~FileBudget();
  FileBudget(const FileBudget&) = delete;
  FileBudget& operator=(const FileBudget&) = delete;

  // The budget open on this thread, or nullptr (a caller outside the pipeline: unlimited).
  static FileBudget* current();

  // Adds bytes the analysis holds for this file (negative: released).
  void charge(int64_t bytes) { charged_ += bytes; }
  // Adds CPU time a helper process spent for this file while the thread waited on it (kgate-nvrtc); the
  // next exhausted() reads the clocks.
  void charge_cpu_ms(uint64_t ms) {
    helper_cpu_ms_ += ms;
    questions_ = 0;
  }
  // True once time or memory is spent (latched). Memory is checked on every call, time on every 16th.
  bool exhausted();
  BudgetOverrun overrun() const { return overrun_; }
  uint64_t used_bytes() const;
  uint64_t elapsed_ms() const;  // CPU time of this thread since the budget opened, and its helpers'
  uint64_t wall_elapsed_ms() const;
  uint32_t max_ms() const { return max_ms_; }
  uint64_t max_bytes() const { return max_bytes_; }
  // One sentence for the input-too-slow / input-too-much-memory finding.
  std::string describe() const;

 private:
  std::chrono::steady_clock::time_point wall_start_;  // CPU time <= wall time: a cheap first test
  uint64_t cpu_start_ms_;
  uint64_t helper_cpu_ms_ = 0;
  uint32_t questions_ = 0;  // exhausted() reads the clock on every 16th call
  uint32_t max_ms_;
  uint64_t max_bytes_;
  int64_t charged_ = 0;
  int64_t tree_sitter_base_;  // the thread's tree-sitter live bytes when the budget opened
  BudgetOverrun overrun_ = BudgetOverrun::None;
  FileBudget* previous_;
};

// Shorthands for code that may run with no budget open.
inline void budget_charge(int64_t bytes) {
  if (FileBudget* b = FileBudget::current()) b->charge(bytes);
}
inline bool budget_exhausted() {
  FileBudget* b = FileBudget::current();
  return b && b->exhausted();
}

// Installs the counting allocator into tree-sitter (once per process; idempotent). Called by
// FileBudget's constructor, so every parse under a budget is counted.
void install_tree_sitter_accounting();

}  // namespace kgate
