// Bundles: solution.py with its sidecars under banner lines, split back into host and sidecars,
// and the sidecars standing in for sibling files in the pipeline.
#include <gtest/gtest.h>

#include <set>

#include "analyzers/ingest/bundle.h"
#include "analyzers/pipeline/pipeline.h"
#include "analyzers/rules/policy.h"
#include "analyzers/rules/rule_set.h"
#include "test_support.h"

namespace kgate {
namespace {

constexpr const char* kBundle =
    "from pathlib import Path\n"
    "import torch\nimport torch.nn as nn\nfrom torch.utils.cpp_extension import load\n"
    "ext = load(name='k', sources=[str(Path(__file__).parent / 'k.cu')])\n"
    "class ModelNew(nn.Module):\n    def forward(self, x):\n        return ext.k(x)\n"
    "\n"
    "# ==================================================================\n"
    "# ===== sidecar: k.cu (60 bytes, loaded by solution.py) =====\n"
    "# ==================================================================\n"
    "__global__ void k_kernel(float* y) { y[0] = 1.f; }\n"
    "# ==================================================================\n"
    "# ===== sidecar: helpers.py (10 bytes, loaded by solution.py) =====\n"
    "# ==================================================================\n"
    "X = 1\n";

TEST(Bundle, SplitsHostAndSidecarsAtTheBanners) {
  const ingest::Bundle b = ingest::split_bundle(kBundle);
  ASSERT_EQ(b.sidecars.size(), 2u);
  EXPECT_EQ(b.sidecars[0].first, "k.cu");
  EXPECT_EQ(b.sidecars[0].second, "__global__ void k_kernel(float* y) { y[0] = 1.f; }\n");
  EXPECT_EQ(b.sidecars[1].first, "helpers.py");
  EXPECT_EQ(b.sidecars[1].second, "X = 1\n");
  EXPECT_EQ(b.host.find("sidecar"), std::string::npos);
  EXPECT_EQ(b.host.rfind("return ext.k(x)\n\n"), b.host.size() - 17);
}

TEST(Bundle, PlainFilesAreNoBundle) {
  EXPECT_TRUE(ingest::split_bundle("import torch\n# ===== not a sidecar =====\n").sidecars.empty());
  EXPECT_TRUE(ingest::split_bundle("").sidecars.empty());
}

TEST(Bundle, SidecarStandsInForTheSiblingFile) {
  auto load = load_rules(testing::source_rules_dir());
  ASSERT_TRUE(load.problems.empty());
  auto policy = load_policy(testing::source_rules_dir() / "policies", "kernelbench");
  ASSERT_TRUE(policy.has_value());
  AnalysisContext context;
  context.rules = &load.rules;
  context.policy = &*policy;
  context.cpp_engine = "tree-sitter";
  testing::ScratchDir dir;  // no k.cu on disk: only the bundle's sidecar can provide it
  const FileResult r = analyze_source((dir.path() / "solution.py").string(), kBundle, context);
  std::set<std::string> rules;
  for (const auto& f : r.findings) rules.insert(f.rule);
  EXPECT_FALSE(rules.count("extension-sources-unresolved"));
  EXPECT_FALSE(rules.count("input-parse-error"));  // the sidecars are not parsed as Python
  EXPECT_EQ(r.metrics.value("embedded_sources", 0), 1);
}

}  // namespace
}  // namespace kgate
