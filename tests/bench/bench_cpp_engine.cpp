// C++ engine speed on the corpus's embedded sources, against clang-tidy 19 on the same sources.
//
// A plain program, run by hand (no Google Benchmark, no ctest entry). For every .py under the corpus
// it extracts the embedded C++/CUDA modules with python::extract_facts, then:
//  (a) times cuda::extract_facts on each embedded source on its own (a FactSet holding the host
//      module and that one module), REPS repetitions per source, the median per source; reported as
//      count, median, p90 and max ms per source against the goal "median <= 10 ms per embedded source
//      with shims"; once with Clang and once with force_tree_sitter=true;
//  (b) writes each embedded source to a temp dir as NNN.cu and times clang-tidy-19 on each, with the
//      flags kgate's Clang engine uses for embedded sources (analyzers/cuda/clang/clang_engine.cpp,
//      shim_args, plus -include kgate_prelude.h, which kgate loads as a PCH), and prints the ratio.
// Usage: kgate_bench_cpp [CORPUS_DIR] [TIDY_REPS]   (defaults: <source>/corpus, 1)
// Environment: KGATE_CLANG_TIDY overrides the clang-tidy binary (default clang-tidy-19).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "analyzers/core/facts.h"
#include "analyzers/core/source.h"
#include "analyzers/cuda/cuda_facts.h"
#include "analyzers/ingest/ingest.h"
#include "analyzers/python/python_facts.h"
#ifdef KGATE_HAVE_CLANG
#include "analyzers/cuda/clang/clang_engine.h"
#endif

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kReps = 3;
constexpr double kGoalMs = 10.0;

struct Embedded {
  size_t file = 0;       // index into the host list
  kgate::FactSet facts;  // host module + this one module, Python facts included
  std::string text;
};

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double percentile(std::vector<double> v, double p) {  // nearest rank
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t rank = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(v.size())));
  return v[std::clamp<size_t>(rank, 1, v.size()) - 1];
}

void summary(const std::string& label, const std::vector<double>& per_source, const std::string& extra) {
  double med = median(per_source);
  std::printf("%s: count=%zu median=%.2f ms p90=%.2f ms max=%.2f ms per embedded source%s\n", label.c_str(),
              per_source.size(), med, percentile(per_source, 90),
              per_source.empty() ? 0.0 : *std::max_element(per_source.begin(), per_source.end()), extra.c_str());
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

int main(int argc, char** argv) {
#ifdef KGATE_HAVE_CLANG
  kgate::cuda::clang_init();
#endif
  const fs::path corpus = argc > 1 ? fs::path(argv[1]) : fs::path(KGATE_SOURCE_DIR) / "corpus";
  const int tidy_reps = argc > 2 ? std::max(1, std::atoi(argv[2])) : 1;
  const char* tidy_env = std::getenv("KGATE_CLANG_TIDY");
  const std::string tidy = tidy_env && *tidy_env ? tidy_env : "clang-tidy-19";
  const std::string shims = std::string(KGATE_SOURCE_DIR) + "/analyzers/cuda/shims";

  std::vector<std::string> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(corpus, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file() && it->path().extension() == ".py") files.push_back(it->path().string());
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::cerr << "bench_cpp: no .py files under " << corpus << "\n";
    return 2;
  }

  // ---- extract the embedded modules (untimed) ----
  std::vector<kgate::SourceFile> hosts;
  std::vector<Embedded> embedded;
  kgate::ingest::Limits limits;
  for (const auto& path : files) hosts.emplace_back(path, read_all(path));
  for (size_t f = 0; f < hosts.size(); ++f) {
    kgate::FactSet facts;
    std::vector<kgate::Diagnostic> diagnostics;
    kgate::python::extract_facts(hosts[f], limits, facts, diagnostics);
    for (size_t m = 1; m < facts.modules.size(); ++m) {
      const kgate::Module& module = facts.modules[m];
      if (module.language != kgate::Language::Cuda && module.language != kgate::Language::Cpp) continue;
      if (module.text.find_first_not_of(" \t\r\n") == std::string::npos) continue;
      Embedded e;
      e.file = f;
      e.facts = facts;
      e.facts.modules = {facts.modules[0], module};
      e.text = module.text;
      embedded.push_back(std::move(e));
    }
  }
  std::printf("corpus: %s: %zu .py files, %zu embedded C++/CUDA sources\n", corpus.c_str(), files.size(),
              embedded.size());
  std::printf("clang engine available: %s\n",
              kgate::cuda::clang_available() ? "yes" : "NO (Clang numbers are tree-sitter)");
  if (embedded.empty()) return 2;

  // ---- (a) kgate: Clang with shims, then tree-sitter ----
  auto time_kgate = [&](bool force_tree_sitter, size_t& fallbacks) {
    kgate::cuda::CudaOptions options;
    options.force_tree_sitter = force_tree_sitter;
    // Warm-up: loads (or builds) the shim PCH so the first source is not charged with it.
    {
      kgate::FactSet facts = embedded[0].facts;
      std::vector<kgate::Diagnostic> diagnostics;
      kgate::cuda::extract_facts(hosts[embedded[0].file], facts, diagnostics, options);
    }
    std::vector<double> per_source;
    fallbacks = 0;
    for (const auto& e : embedded) {
      std::vector<double> reps;
      for (int r = 0; r < kReps; ++r) {
        kgate::FactSet facts = e.facts;  // copied outside the timed region
        std::vector<kgate::Diagnostic> diagnostics;
        auto start = Clock::now();
        kgate::cuda::extract_facts(hosts[e.file], facts, diagnostics, options);
        reps.push_back(ms_since(start));
        if (r == 0 && !force_tree_sitter)
          for (const auto& d : diagnostics)
            if (d.rule == "engine-fallback") ++fallbacks;
      }
      per_source.push_back(median(reps));
    }
    return per_source;
  };
  size_t clang_fallbacks = 0, ts_unused = 0;
  std::vector<double> clang_ms = time_kgate(false, clang_fallbacks);
  std::vector<double> ts_ms = time_kgate(true, ts_unused);
  const double clang_median = median(clang_ms);
  summary("kgate clang (shims, PCH)", clang_ms,
          "; goal median <= 10 ms per embedded source with shims: " +
              std::string(clang_median <= kGoalMs ? "MET" : "NOT MET") + "; engine-fallback on " +
              std::to_string(clang_fallbacks) + " sources");
  summary("kgate tree-sitter (force_tree_sitter=true)", ts_ms, "");

  // ---- (b) clang-tidy 19 on the same sources ----
  fs::path dir = fs::temp_directory_path() / ("kgate-bench-cpp-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::vector<std::string> paths;
  for (size_t i = 0; i < embedded.size(); ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "%03zu.cu", i);
    paths.push_back((dir / name).string());
    std::ofstream(paths.back(), std::ios::binary) << embedded[i].text;
  }
  // kgate's shim_args (clang_engine.cpp) minus -fsyntax-only/-resource-dir/the virtual missing-header
  // root, which clang-tidy cannot take; plus the prelude kgate loads through its PCH.
  const std::string flags =
      "-x cuda --cuda-host-only -nocudainc -nocudalib -std=c++17 -w -Wno-unknown-cuda-version "
      "-ferror-limit=0 -fno-spell-checking -D__CUDACC__ -D__NVCC__ "
      "-DTORCH_EXTENSION_NAME=kgate_extension -DWITH_CUDA -nostdinc++ -isystem " +
      shell_quote(shims + "/std") + " -isystem " + shell_quote(shims) + " -include " +
      shell_quote(shims + "/kgate_prelude.h");
  auto command_for = [&](const std::string& path) {
    return tidy + " --quiet --checks='-*,bugprone-*,performance-*' " + shell_quote(path) + " -- " + flags +
           " >/dev/null 2>&1";
  };
  std::printf("clang-tidy command (per file, %d rep%s): %s\n", tidy_reps, tidy_reps == 1 ? "" : "s",
              command_for(paths[0]).c_str());
  std::fflush(stdout);
  if (std::system((tidy + " --version >/dev/null 2>&1").c_str()) != 0) {
    std::printf("baseline: clang-tidy 19 not runnable (%s); no ratio\n", tidy.c_str());
    fs::remove_all(dir, ec);
    return 1;
  }
  std::vector<double> tidy_ms;
  size_t tidy_nonzero = 0;
  for (const auto& path : paths) {
    std::vector<double> reps;
    for (int r = 0; r < tidy_reps; ++r) {
      auto start = Clock::now();
      int status = std::system(command_for(path).c_str());
      reps.push_back(ms_since(start));
      if (r == 0 && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) ++tidy_nonzero;
    }
    tidy_ms.push_back(median(reps));
  }
  fs::remove_all(dir, ec);
  const double tidy_median = median(tidy_ms);
  summary("baseline: clang-tidy 19 (same sources, same run)", tidy_ms,
          "; nonzero exit on " + std::to_string(tidy_nonzero) + " sources");
  std::printf("ratio clang-tidy/kgate-clang (median per source): %.1fx (kgate's Clang pass is %.1f times faster)\n",
              clang_median > 0 ? tidy_median / clang_median : 0.0, clang_median > 0 ? tidy_median / clang_median : 0.0);
  return 0;
}
