// FileBudget: the per-file deadline and memory limit, and tree-sitter's counting allocator.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "analyzers/core/budget.h"
#include "analyzers/treesitter/ts_node.h"

extern "C" const TSLanguage* tree_sitter_python();

namespace kgate {
namespace {

TEST(FileBudget, NoBudgetOpenMeansUnlimited) {
  EXPECT_EQ(FileBudget::current(), nullptr);
  budget_charge(int64_t{1} << 40);  // ignored: nothing to charge
  EXPECT_FALSE(budget_exhausted());
}

TEST(FileBudget, InstallsItselfForItsScopeAndNests) {
  {
    FileBudget outer(0, 0);
    EXPECT_EQ(FileBudget::current(), &outer);
    {
      FileBudget inner(0, 0);
      EXPECT_EQ(FileBudget::current(), &inner);
    }
    EXPECT_EQ(FileBudget::current(), &outer);
  }
  EXPECT_EQ(FileBudget::current(), nullptr);
}

TEST(FileBudget, MemoryLimitLatches) {
  FileBudget budget(0, 1000);
  budget_charge(600);
  EXPECT_FALSE(budget_exhausted());
  budget_charge(600);
  EXPECT_TRUE(budget_exhausted());
  EXPECT_EQ(budget.overrun(), BudgetOverrun::Memory);
  budget_charge(-1200);  // released again: the overrun stays, the file is abandoned
  EXPECT_TRUE(budget_exhausted());
  EXPECT_NE(budget.describe().find("--max-file-memory"), std::string::npos);
}

TEST(FileBudget, DeadlineCountsThisThreadsCpuTime) {
  FileBudget budget(5, 0);
  EXPECT_FALSE(budget.exhausted());
  // Sleeping uses no CPU time: the deadline is not spent.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  for (int i = 0; i < 32; ++i) EXPECT_FALSE(budget.exhausted());
  // Spinning is; the clock is read on every 16th question, so a spinning caller sees it soon.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  volatile uint64_t sink = 0;
  while (!budget.exhausted() && std::chrono::steady_clock::now() < give_up)
    for (int i = 0; i < 10000; ++i) sink = sink + static_cast<uint64_t>(i);
  EXPECT_TRUE(budget.exhausted());
  EXPECT_EQ(budget.overrun(), BudgetOverrun::Time);
  EXPECT_NE(budget.describe().find("--max-file-ms"), std::string::npos);
}

TEST(FileBudget, ZeroMeansNoLimit) {
  FileBudget budget(0, 0);
  budget_charge(int64_t{1} << 40);
  EXPECT_FALSE(budget.exhausted());
}

std::string many_statements(int n) {
  std::string text;
  for (int i = 0; i < n; ++i) text += "v" + std::to_string(i) + " = f(x, " + std::to_string(i) + ")\n";
  return text;
}

TEST(FileBudget, CountsTreeSitterMemoryOfAParse) {
  FileBudget budget(0, 0);
  ts::ParserPtr parser(ts_parser_new());
  ts_parser_set_language(parser.get(), tree_sitter_python());
  const uint64_t before = budget.used_bytes();
  ts::TreePtr tree(ts::parse_within_budget(parser.get(), many_statements(2000)));
  ASSERT_TRUE(tree);
  // A tree of 2,000 statements holds well over 100 KiB of nodes.
  EXPECT_GT(budget.used_bytes(), before + 100 * 1024);
  const uint64_t with_tree = budget.used_bytes();
  tree.reset();
  EXPECT_LT(budget.used_bytes(), with_tree);  // freeing is counted too
}

TEST(FileBudget, ParseStopsWhenTheBudgetIsSpent) {
  FileBudget budget(0, 64 * 1024);
  ts::ParserPtr parser(ts_parser_new());
  ts_parser_set_language(parser.get(), tree_sitter_python());
  ts::TreePtr tree(ts::parse_within_budget(parser.get(), many_statements(20000)));
  EXPECT_FALSE(tree);  // the progress callback cancelled the parse
  EXPECT_EQ(budget.overrun(), BudgetOverrun::Memory);
}

}  // namespace
}  // namespace kgate
