// Golden tests: findings must equal the `ruleid:` annotations of every corpus file and rule fixture.
//
// The line after `# ruleid: a, b` (or `// ruleid:` inside C++) must produce findings of rules a and b;
// the line after `# ok: a` must not produce a. Any other finding is "noisy", any unmet ruleid is
// "missing" (the vocabulary of ast-grep). Both fail the test; the counts are printed either way.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "analyzers/pipeline/gate_context.h"
#include "analyzers/pipeline/pipeline.h"
#include "analyzers/rules/policy.h"
#include "analyzers/rules/rule_set.h"
#ifdef KGATE_HAVE_CLANG
#include "analyzers/cuda/clang/clang_engine.h"
#endif

namespace fs = std::filesystem;

namespace {

struct Expectations {
  std::set<std::pair<uint32_t, std::string>> expected;   // (line, rule)
  std::set<std::pair<uint32_t, std::string>> forbidden;  // (line, rule) from `ok:`
};

std::vector<std::string> split_ids(const std::string& list) {
  std::vector<std::string> ids;
  std::string cur;
  for (char c : list) {
    if (c == ',' || c == ' ' || c == '\t' || c == '\r') {
      if (!cur.empty()) ids.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(c);
    }
  }
  if (!cur.empty()) ids.push_back(cur);
  return ids;
}

// Finds `<marker> ruleid:` / `<marker> ok:` comments; they apply to the next line that is not itself
// an annotation.
Expectations parse_annotations(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream ss(text);
  for (std::string line; std::getline(ss, line);) lines.push_back(line);
  Expectations out;
  std::vector<std::pair<bool, std::string>> pending;  // (is_ruleid, id)
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    bool annotation = false;
    for (const char* marker : {"#", "//"}) {
      for (const char* kind : {"ruleid:", "ok:"}) {
        size_t at = line.find(std::string(marker) + " " + kind);
        if (at == std::string::npos) continue;
        // Only a comment that starts the line (after indentation) is an annotation.
        size_t first = line.find_first_not_of(" \t");
        if (first != at) continue;
        std::string rest = line.substr(at + std::strlen(marker) + 1 + std::strlen(kind));
        for (const auto& id : split_ids(rest)) pending.push_back({std::string(kind) == "ruleid:", id});
        annotation = true;
      }
    }
    if (annotation || pending.empty()) continue;
    uint32_t target = static_cast<uint32_t>(i + 1);
    for (const auto& [is_ruleid, id] : pending) {
      if (is_ruleid)
        out.expected.insert({target, id});
      else
        out.forbidden.insert({target, id});
    }
    pending.clear();
  }
  return out;
}

struct Tally {
  size_t validated = 0, noisy = 0, missing = 0, files = 0;
  std::vector<std::string> problems;
};

void compare(const std::string& path, const kgate::FileResult& result, const Expectations& want,
             const std::string& only_rule, Tally& tally) {
  std::set<std::pair<uint32_t, std::string>> got;
  for (const auto& d : result.findings) {
    if (!only_rule.empty() && d.rule != only_rule) continue;
    // A note says what the gate could not do (ptx-witness-not-run), not what the code does.
    if (d.severity == kgate::Severity::Note) continue;
    got.insert({d.span.line, d.rule});
  }
  ++tally.files;
  for (const auto& g : got) {
    bool wanted = want.expected.count(g) > 0;
    if (wanted) {
      ++tally.validated;
    } else {
      ++tally.noisy;
      std::string msg;
      for (const auto& d : result.findings)
        if (d.span.line == g.first && d.rule == g.second) msg = d.message;
      tally.problems.push_back("noisy   " + path + ":" + std::to_string(g.first) + " [" + g.second + "] " + msg);
    }
  }
  for (const auto& w : want.expected) {
    if (!only_rule.empty() && w.second != only_rule) continue;
    if (!got.count(w))
      tally.problems.push_back("missing " + path + ":" + std::to_string(w.first) + " [" + w.second + "]");
    if (!got.count(w)) ++tally.missing;
  }
  for (const auto& f : want.forbidden)
    if (got.count(f))
      tally.problems.push_back("ok-violated " + path + ":" + std::to_string(f.first) + " [" + f.second + "]");
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool is_under(const fs::path& p, const fs::path& dir) {
  const auto rel = fs::relative(p, dir);
  return !rel.empty() && *rel.begin() != "..";
}

bool analysable(const fs::path& p) {
  static const std::set<std::string> ext = {".py", ".cu", ".cuh", ".cpp", ".cc", ".h", ".hpp"};
  return ext.count(p.extension().string()) > 0;
}

class Golden : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(KGATE_SOURCE_DIR);
    auto load = kgate::load_rules(root_ / "rules");
    for (const auto& p : load.problems) ADD_FAILURE() << "rule problem: " << p.file << ": " << p.message;
    rules_ = std::move(load.rules);
    auto policy = kgate::load_policy(root_ / "rules" / "policies", "kernelbench");
    ASSERT_TRUE(policy.has_value()) << policy.error();
    policy_ = std::move(policy.value());
    auto harnesses = kgate::load_harness_profiles(root_ / "rules");
    ASSERT_TRUE(harnesses.has_value()) << harnesses.error();
    harnesses_ = std::move(*harnesses);
  }

  kgate::FileResult analyze(const fs::path& file, std::vector<std::string> only = {}) {
    kgate::AnalysisContext context;
    context.rules = &rules_;
    context.policy = &policy_;
    context.only_rules = std::move(only);
    return kgate::analyze_file(file.string(), context);
  }

  // A corpus file as the CLI sees it under --policy kernelbench: its directory's .kgate.yaml (entry
  // functions, harness, contract) applies.
  kgate::FileResult analyze_as_cli(const fs::path& file) {
    if (!resolver_) {
      kgate::GateOptions options;
      options.policy = "kernelbench";
      auto made = kgate::GateContext::make(options, rules_, harnesses_, root_ / "rules");
      if (!made) {
        ADD_FAILURE() << made.error();
        return {};
      }
      resolver_ = std::make_unique<kgate::GateContext>(std::move(*made));
    }
    auto context = resolver_->context_for(file.string());
    if (!context) {
      ADD_FAILURE() << file << ": " << context.error();
      return {};
    }
    return kgate::analyze_file(file.string(), **context);
  }

  void report(const char* what, const Tally& t) {
    std::cout << what << ": files " << t.files << ", validated " << t.validated << ", noisy " << t.noisy << ", missing "
              << t.missing << "\n";
    for (const auto& p : t.problems) std::cout << "  " << p << "\n";
    EXPECT_TRUE(t.problems.empty()) << what << " has " << t.problems.size() << " problems (listed above)";
  }

  fs::path root_;
  kgate::RuleSet rules_;
  kgate::Policy policy_;
  kgate::HarnessSet harnesses_;
  std::unique_ptr<kgate::GateContext> resolver_;
};

TEST_F(Golden, Corpus) {
  Tally tally;
  std::vector<fs::path> files;
  // corpus/runtime/ holds runtime cheats, judged by `kgate run` (tests/runtime), not by their static findings;
  // corpus/submissions/ holds directories judged as one submission each (tests/cli/submission_test.sh).
  const auto runtime_corpus = root_ / "corpus" / "runtime";
  const auto submissions = root_ / "corpus" / "submissions";
  for (const auto& e : fs::recursive_directory_iterator(root_ / "corpus")) {
    if (e.is_regular_file() && analysable(e.path()) && !is_under(e.path(), runtime_corpus) &&
        !is_under(e.path(), submissions))
      files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 60u) << "the corpus must hold at least 60 submissions";
  for (const auto& f : files) {
    std::string rel = fs::relative(f, root_).string();
    const kgate::FileResult result = analyze_as_cli(f);
    compare(rel, result, parse_annotations(read(f)), "", tally);
    // The verdict by folder: honest/ passes, not-a-submission/ is a kernel module with no harness
    // entry, and a cheat is never a pass (rejected, or unjudged when no entry can be found).
    std::string want;
    for (const auto& part : fs::relative(f, root_ / "corpus")) {
      if (part == "honest") want = "pass";
      if (part == "not-a-submission") want = "not-a-submission";
      if (part == "cheats") want = "not pass";
    }
    // A workspace's reference.py (beside a solution, giving its dtype contract) is the harness's file.
    if (f.filename() == "reference.py") want = "not-a-submission";
    const bool ok = want == "not pass" ? result.verdict != "pass" : want.empty() || result.verdict == want;
    if (!ok) tally.problems.push_back("verdict " + rel + ": " + result.verdict + " (expected " + want + ")");
  }
  report("corpus", tally);
  EXPECT_GT(tally.validated, 0u);
}

TEST_F(Golden, RuleFixtures) {
  Tally tally;
  size_t rules_with_fixture = 0;
  for (const auto& rule : rules_.rules()) {
    fs::path yaml(rule.file);
    bool found = false;
    for (const char* ext : {".py", ".cu", ".cuh", ".cpp"}) {
      fs::path fixture = yaml;
      fixture.replace_extension(ext);
      if (!fs::exists(fixture)) continue;
      found = true;
      // Suppression diagnostics depend on the other rules running; every other fixture runs alone.
      bool meta = rule.check == "suppressions";
      std::string rel = fs::relative(fixture, root_).string();
      compare(rel, analyze(fixture, meta ? std::vector<std::string>{} : std::vector<std::string>{rule.id}),
              parse_annotations(read(fixture)), rule.id, tally);
    }
    if (found)
      ++rules_with_fixture;
    else if (rule.fixture != "generated")
      ADD_FAILURE() << "rule " << rule.id << " has no fixture beside " << rule.file
                    << " (and does not say `fixture: generated`)";
    if (found && rule.fixture == "generated")
      ADD_FAILURE() << "rule " << rule.id << " says `fixture: generated` and has one beside it";
  }
  report("rule fixtures", tally);
  EXPECT_GT(rules_with_fixture, 0u);
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
#ifdef KGATE_HAVE_CLANG
  kgate::cuda::clang_init();
#endif
  return RUN_ALL_TESTS();
}
