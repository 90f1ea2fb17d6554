// Static-gate throughput: analyze_file over every .py in corpus/ on one thread (files/s).
//
// The rule set and the policy are loaded once, before timing, the way `kgate check` loads them once
// per run; what is timed is the per-file pipeline (read, ingest, facts, rules, suppressions, verdict).
// Usage: kgate_bench_static [google-benchmark flags] [CORPUS_DIR]   (default: <source>/corpus)
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "analyzers/core/config.h"
#include "analyzers/ingest/ingest.h"
#include "analyzers/pipeline/pipeline.h"
#include "analyzers/rules/policy.h"
#include "analyzers/rules/rule_set.h"
#ifdef KGATE_HAVE_CLANG
#include "analyzers/cuda/clang/clang_engine.h"
#endif
#include "analyzers/cuda/cuda_facts.h"

namespace fs = std::filesystem;

namespace {

// Everything the timed loops share, built once in main before any benchmark runs.
struct CorpusFixture {
  kgate::RuleSet rules;
  std::map<std::string, kgate::Policy> policies;           // by name
  kgate::Config config;                                    // the corpus's .kgate.yaml, or the defaults
  std::map<std::string, kgate::AnalysisContext> contexts;  // by policy name
  std::vector<std::string> files;                          // sorted .py paths
  std::vector<std::string> texts;                          // same order, for the in-memory variant
  std::vector<const kgate::AnalysisContext*> file_contexts;
};

CorpusFixture* fixture = nullptr;

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Same policy choice as `kgate check` without --policy/--task: the config's, else by file kind.
bool build_fixture(const fs::path& corpus_dir, CorpusFixture& out) {
  const fs::path rules_dir = fs::path(KGATE_SOURCE_DIR) / "rules";
  kgate::RuleLoad load = kgate::load_rules(rules_dir);
  if (!load.problems.empty()) {
    for (const auto& problem : load.problems) std::cerr << "bench: rules: " << problem.message << "\n";
    return false;
  }
  out.rules = std::move(load.rules);

  if (auto config_file = kgate::find_config(corpus_dir)) {
    auto config = kgate::load_config(*config_file);
    if (!config) {
      std::cerr << "bench: " << config.error() << "\n";
      return false;
    }
    out.config = std::move(*config);
  }

  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(corpus_dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file() && it->path().extension() == ".py") out.files.push_back(it->path().string());
  std::sort(out.files.begin(), out.files.end());
  if (out.files.empty()) {
    std::cerr << "bench: no .py files under " << corpus_dir << "\n";
    return false;
  }

  for (const auto& file : out.files) {
    const std::string policy_name = out.config.policy.empty()
                                        ? std::string(kgate::default_policy_name(kgate::ingest::kind_from_path(file)))
                                        : out.config.policy;
    if (!out.policies.count(policy_name)) {
      auto policy = kgate::load_policy(rules_dir / "policies", policy_name);
      if (!policy) {
        std::cerr << "bench: " << policy.error() << "\n";
        return false;
      }
      out.policies.emplace(policy_name, std::move(*policy));
      kgate::AnalysisContext& context = out.contexts[policy_name];
      context.rules = &out.rules;
      context.policy = &out.policies.at(policy_name);
      context.config = &out.config;
    }
    out.file_contexts.push_back(&out.contexts.at(policy_name));
    out.texts.push_back(read_all(file));
  }
  return true;
}

void report_rate(benchmark::State& state, size_t files_per_iteration) {
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * files_per_iteration));
  // Mean wall time of one file, in microseconds.
  state.counters["us_per_file"] =
      benchmark::Counter(static_cast<double>(state.iterations() * files_per_iteration) * 1e-6,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// The whole corpus per iteration, reading each file from disk as `kgate check` does.
void BM_AnalyzeCorpus(benchmark::State& state) {
  size_t findings = 0;
  for (auto _ : state) {
    for (size_t i = 0; i < fixture->files.size(); ++i) {
      kgate::FileResult result = kgate::analyze_file(fixture->files[i], *fixture->file_contexts[i]);
      findings += result.findings.size();
      benchmark::DoNotOptimize(result);
    }
  }
  state.counters["files"] = static_cast<double>(fixture->files.size());
  state.counters["findings_per_pass"] =
      static_cast<double>(findings) / static_cast<double>(std::max<int64_t>(1, state.iterations()));
  report_rate(state, fixture->files.size());
}

// The same without file I/O: the text is already in memory (the bindings' and fuzzers' entry point).
void BM_AnalyzeCorpusInMemory(benchmark::State& state) {
  for (auto _ : state) {
    for (size_t i = 0; i < fixture->files.size(); ++i) {
      kgate::FileResult result =
          kgate::analyze_source(fixture->files[i], fixture->texts[i], *fixture->file_contexts[i]);
      benchmark::DoNotOptimize(result);
    }
  }
  report_rate(state, fixture->files.size());
}

// One file per benchmark, for finding the expensive ones (--benchmark_filter=BM_AnalyzeFile).
void BM_AnalyzeFile(benchmark::State& state, size_t index) {
  for (auto _ : state) {
    kgate::FileResult result = kgate::analyze_file(fixture->files[index], *fixture->file_contexts[index]);
    benchmark::DoNotOptimize(result);
  }
  state.counters["bytes"] = static_cast<double>(fixture->texts[index].size());
  report_rate(state, 1);
}

}  // namespace

int main(int argc, char** argv) {
#ifdef KGATE_HAVE_CLANG
  kgate::cuda::clang_init();  // as the CLI does: C++ facts from Clang, tree-sitter-cuda as the fallback
#endif
  benchmark::Initialize(&argc, argv);  // removes the --benchmark_* flags it understands
  fs::path corpus_dir = fs::path(KGATE_SOURCE_DIR) / "corpus";
  if (argc > 2) {
    std::cerr << "usage: kgate_bench_static [--benchmark_* flags] [CORPUS_DIR]\n";
    return 2;
  }
  if (argc == 2) corpus_dir = argv[1];

  auto storage = std::make_unique<CorpusFixture>();
  if (!build_fixture(corpus_dir, *storage)) return 2;
  fixture = storage.get();

  benchmark::AddCustomContext("cpp_engine", kgate::cuda::clang_available() ? "clang" : "tree-sitter-cuda");
  benchmark::RegisterBenchmark("BM_AnalyzeCorpus", BM_AnalyzeCorpus)->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_AnalyzeCorpusInMemory", BM_AnalyzeCorpusInMemory)->Unit(benchmark::kMillisecond);
  for (size_t i = 0; i < fixture->files.size(); ++i) {
    const std::string name = "BM_AnalyzeFile/" + fs::relative(fixture->files[i], corpus_dir).string();
    benchmark::RegisterBenchmark(name.c_str(), BM_AnalyzeFile, i)->Unit(benchmark::kMicrosecond);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
