// .kgate.yaml: parsing, errors as values, discovery in parent directories, excludes, and dumping.
#include <gtest/gtest.h>

#include "analyzers/core/config.h"
#include "test_support.h"

namespace kgate {
namespace {

using kgate::testing::ScratchDir;

TEST(Config, ParsesEveryKey) {
  const auto config = parse_config(R"(
policy: matrix-multiply
rules:
  enable: [side-stream]
  disable: ["timing-*", host-readback-in-forward]
severity:
  host-readback-in-forward: error
  "semantic-*": note
exclude: [build/**, "*.cuh"]
)",
                                   "cfg.yaml", "/repo");
  ASSERT_TRUE(config.has_value()) << config.error();
  EXPECT_EQ(config->policy, "matrix-multiply");
  EXPECT_EQ(config->enable, std::vector<std::string>{"side-stream"});
  EXPECT_EQ(config->disable, (std::vector<std::string>{"timing-*", "host-readback-in-forward"}));
  EXPECT_EQ(config->severity_for("host-readback-in-forward"), Severity::Error);
  EXPECT_EQ(config->severity_for("semantic-x"), Severity::Note);
  EXPECT_FALSE(config->severity_for("other").has_value());
  EXPECT_EQ(config->enabled("timing-x"), false);
  EXPECT_EQ(config->enabled("side-stream"), true);
  EXPECT_FALSE(config->enabled("other").has_value());
  EXPECT_EQ(config->exclude.size(), 2u);
}

TEST(Config, EmptyDocumentIsTheDefaults) {
  const auto config = parse_config("", "cfg.yaml", ".");
  ASSERT_TRUE(config.has_value());
  EXPECT_TRUE(config->policy.empty());
  EXPECT_TRUE(config->enable.empty());
}

TEST(Config, ErrorsNameTheFileAndTheProblem) {
  struct Case {
    const char* yaml;
    const char* expected;
  };
  for (const Case& c :
       {Case{"polcy: x\n", "unknown key 'polcy'"}, Case{"severity: {a: fatal}\n", "expected error, warning or note"},
        Case{"rules: {enabel: [a]}\n", "unknown key 'enabel'"}, Case{"rules: [a]\n", "expected a mapping"},
        Case{"exclude: {a: b}\n", "expected a list of strings"}, Case{"policy: [a]\n", "expected a policy name"},
        Case{"policy: x\npolicy: y\n", "duplicate key 'policy'"}, Case{"a: [unclosed\n", "invalid YAML"},
        Case{"- just a list\n", "expected a mapping"}}) {
    const auto config = parse_config(c.yaml, "dir/.kgate.yaml", ".");
    ASSERT_FALSE(config.has_value()) << c.yaml;
    EXPECT_NE(config.error().find("dir/.kgate.yaml"), std::string::npos) << config.error();
    EXPECT_NE(config.error().find(c.expected), std::string::npos) << config.error();
  }
}

TEST(Config, YamlOneOneBooleansStayStrings) {
  // "no" is a string in YAML 1.2; a rule list containing it must not turn into false.
  const auto config = parse_config("rules: {disable: [no, off]}\n", "c", ".");
  ASSERT_TRUE(config.has_value()) << config.error();
  EXPECT_EQ(config->disable, (std::vector<std::string>{"no", "off"}));
}

TEST(Config, FindsTheNearestParentConfig) {
  ScratchDir dir;
  dir.write(".kgate.yaml", "policy: repository\n");
  dir.write("sub/deeper/.kgate.yaml", "policy: reduce\n");
  const auto top = dir.write("sub/a.py", "x\n");
  const auto deep = dir.write("sub/deeper/more/b.py", "x\n");
  EXPECT_EQ(find_config(top), dir.path() / ".kgate.yaml");
  EXPECT_EQ(find_config(deep), dir.path() / "sub/deeper/.kgate.yaml");
  EXPECT_EQ(find_config(dir.path() / "sub/deeper"), dir.path() / "sub/deeper/.kgate.yaml");
  const auto loaded = load_config(*find_config(deep));
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(loaded->policy, "reduce");
  EXPECT_EQ(loaded->directory, dir.path() / "sub/deeper");
}

TEST(Config, LoadReportsMissingFile) {
  const auto config = load_config("/nonexistent/.kgate.yaml");
  ASSERT_FALSE(config.has_value());
  EXPECT_NE(config.error().find("cannot open"), std::string::npos);
}

TEST(Config, ExcludesAreRelativeToTheConfigDirectory) {
  ScratchDir dir;
  Config config;
  config.directory = dir.path();
  config.exclude = {"build/", "third_party/**/*.cu", "*_generated.py"};
  EXPECT_TRUE(config.excludes(dir.path() / "build"));
  EXPECT_TRUE(config.excludes(dir.path() / "build/x/y.py"));
  EXPECT_TRUE(config.excludes(dir.path() / "third_party/cutlass/gemm.cu"));
  EXPECT_FALSE(config.excludes(dir.path() / "third_party/cutlass/gemm.py"));
  EXPECT_TRUE(config.excludes(dir.path() / "src/model_generated.py"));  // file-name match
  EXPECT_FALSE(config.excludes(dir.path() / "src/model.py"));
  EXPECT_FALSE(Config{}.excludes("anything.py"));
}

TEST(Config, DumpRoundTrips) {
  Config config;
  config.source = "x/.kgate.yaml";
  config.enable = {"a"};
  config.disable = {"b-*"};
  config.severity = {{"c", Severity::Warning}};
  config.exclude = {"build/**"};
  config.entry_functions = {"step", "train"};
  const std::string yaml = dump_config(config, "reduce", "model-entry");
  EXPECT_NE(yaml.find("# from x/.kgate.yaml"), std::string::npos) << yaml;
  const auto back = parse_config(yaml, "dump", ".");
  ASSERT_TRUE(back.has_value()) << back.error() << "\n" << yaml;
  EXPECT_EQ(back->policy, "reduce");
  EXPECT_EQ(back->enable, config.enable);
  EXPECT_EQ(back->disable, config.disable);
  EXPECT_EQ(back->severity, config.severity);
  EXPECT_EQ(back->exclude, config.exclude);
  EXPECT_EQ(back->harness, "model-entry");
  EXPECT_EQ(back->entry_functions, config.entry_functions);
  const auto empty = parse_config(dump_config(Config{}, "kernelbench"), "dump", ".");
  ASSERT_TRUE(empty.has_value()) << empty.error();
  EXPECT_EQ(empty->policy, "kernelbench");
  EXPECT_EQ(empty->harness, "auto");  // detected per file
}

TEST(Config, HarnessKeys) {
  const auto config = parse_config("harness: gpumode\nentry_functions: [step]\n", "c", ".");
  ASSERT_TRUE(config.has_value()) << config.error();
  EXPECT_EQ(config->harness, "gpumode");
  EXPECT_EQ(config->entry_functions, std::vector<std::string>{"step"});
  EXPECT_FALSE(parse_config("harness: 3\n", "c", ".").has_value());
  EXPECT_FALSE(parse_config("harness: ''\n", "c", ".").has_value());
}

}  // namespace
}  // namespace kgate
