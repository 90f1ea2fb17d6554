// FileBudget: the per-file time and memory limits, and tree-sitter's counting allocator.
#include "analyzers/core/budget.h"

#include <malloc.h>
#include <time.h>

#include <cstdlib>
#include <mutex>

#include <tree_sitter/api.h>

namespace kgate {

namespace {

thread_local FileBudget* t_current = nullptr;
// Bytes tree-sitter holds that this thread allocated, minus those it freed. Trees and parsers are
// created and destroyed on the thread that analyses the file, so the difference over one file is
// what parsing that file took (a thread's reused parser makes it smaller, never larger).
thread_local int64_t t_tree_sitter_live = 0;

void* counting_malloc(size_t size) {
  void* p = std::malloc(size);
  if (p) t_tree_sitter_live += static_cast<int64_t>(malloc_usable_size(p));
  return p;
}

void* counting_calloc(size_t count, size_t size) {
  void* p = std::calloc(count, size);
  if (p) t_tree_sitter_live += static_cast<int64_t>(malloc_usable_size(p));
  return p;
}

void* counting_realloc(void* old, size_t size) {
  const int64_t before = old ? static_cast<int64_t>(malloc_usable_size(old)) : 0;
  void* p = std::realloc(old, size);
  if (p) t_tree_sitter_live += static_cast<int64_t>(malloc_usable_size(p)) - before;
  return p;
}

void counting_free(void* p) {
  if (p) t_tree_sitter_live -= static_cast<int64_t>(malloc_usable_size(p));
  std::free(p);
}

uint64_t thread_cpu_ms();

}  // namespace

void install_tree_sitter_accounting() {
  static std::once_flag once;
  std::call_once(once, [] { ts_set_allocator(counting_malloc, counting_calloc, counting_realloc, counting_free); });
}

FileBudget::FileBudget(uint32_t max_ms, uint64_t max_bytes)
    : wall_start_(std::chrono::steady_clock::now()),
      cpu_start_ms_(thread_cpu_ms()),
      max_ms_(max_ms),
      max_bytes_(max_bytes),
      previous_(t_current) {
  install_tree_sitter_accounting();
  tree_sitter_base_ = t_tree_sitter_live;
  t_current = this;
}

FileBudget::~FileBudget() { t_current = previous_; }

FileBudget* FileBudget::current() { return t_current; }

uint64_t FileBudget::used_bytes() const {
  const int64_t used = charged_ + (t_tree_sitter_live - tree_sitter_base_);
  return used > 0 ? static_cast<uint64_t>(used) : 0;
}

namespace {

// The CPU time this thread has used, in ms: a verdict must not depend on how loaded the machine is,
// and wall-clock time on a shared machine mostly measures the other processes.
uint64_t thread_cpu_ms() {
  timespec ts{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
  return static_cast<uint64_t>(ts.tv_sec) * 1000 + static_cast<uint64_t>(ts.tv_nsec) / 1'000'000;
}

}  // namespace

uint64_t FileBudget::elapsed_ms() const { return thread_cpu_ms() - cpu_start_ms_ + helper_cpu_ms_; }

uint64_t FileBudget::wall_elapsed_ms() const {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - wall_start_).count());
}

bool FileBudget::exhausted() {
  if (overrun_ != BudgetOverrun::None) return true;
  if (max_bytes_ && used_bytes() > max_bytes_) overrun_ = BudgetOverrun::Memory;
  // Reading the thread's CPU clock is a system call and hot callers (the folder, the parsers' progress
  // callbacks) ask often: a clock is read on every 16th question only, and the CPU clock only once
  // the wall clock (vDSO, cheap) says the limit could have been reached, as CPU time <= wall time.
  else if (max_ms_ && (++questions_ % 16) == 1 && wall_elapsed_ms() > max_ms_ && elapsed_ms() > max_ms_)
    overrun_ = BudgetOverrun::Time;
  return overrun_ != BudgetOverrun::None;
}

std::string FileBudget::describe() const {
  if (overrun_ == BudgetOverrun::Memory)
    return "analysing the file took more than " + std::to_string(max_bytes_) +
           " bytes of parser and fact memory (--max-file-memory); the file is not analysed";
  if (overrun_ == BudgetOverrun::Time)
    return "analysing the file took longer than " + std::to_string(max_ms_) +
           " ms of CPU time (--max-file-ms); the file is not analysed";
  return {};
}

}  // namespace kgate
