// kgate: the command line of the static gate. Argument parsing, wiring and exit codes only.
#include <algorithm>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

#include <CLI/CLI.hpp>
#ifdef KGATE_HAVE_MIMALLOC
#include <mimalloc.h>
#endif

#include "analyzers/audit/audit.h"
#include "analyzers/audit/html_report.h"
#include "analyzers/audit/merge.h"
#include "analyzers/audit/results_log.h"
#include "analyzers/audit/shard.h"
#include "analyzers/core/config.h"
#include "analyzers/core/content_hash.h"
#include "analyzers/core/facts_json.h"
#include "analyzers/core/file_text.h"
#include "analyzers/pipeline/batch.h"
#include "analyzers/ptx/witness.h"
#include "analyzers/pipeline/gate_context.h"
#include "analyzers/pipeline/inspect.h"
#include "analyzers/pipeline/pipeline.h"
#include "analyzers/pipeline/submission.h"
#include "analyzers/report/report.h"
#include "analyzers/rules/checks.h"
#include "analyzers/rules/policy.h"
#include "analyzers/rules/rule_cache.h"
#include "analyzers/rules/rule_set.h"

#ifdef KGATE_HAVE_CLANG
#include "tools/kgate/clang_loader.h"
#endif
#ifdef KGATE_HAVE_RUNTIME
#include <cerrno>
#include <cstring>

#include "tools/kgate/audit_runtime.h"
#include "tools/kgate/companion_path.h"
#include "tools/kgate/runtime_commands.h"
#endif

#ifndef KGATE_VERSION
#define KGATE_VERSION "0.0.0"
#endif

namespace fs = std::filesystem;

namespace {

// `kgate --version`, with the allocator the binary was linked with (benchmarks print it).
std::string version_text() {
  std::string text = std::string("kgate ") + KGATE_VERSION;
#ifdef KGATE_HAVE_MIMALLOC
  const int v = mi_version();  // e.g. 209 for 2.0.9
  text += " (allocator: mimalloc " + std::to_string(v / 100) + "." + std::to_string(v / 10 % 10) + "." +
          std::to_string(v % 10) + ")";
#else
  text += " (allocator: system malloc)";
#endif
  return text;
}

// Exit codes of the CLI contract (docs/cli.md).
constexpr int kExitClean = 0;
constexpr int kExitFindings = 1;
constexpr int kExitUsage = 2;

int usage_error(const std::string& message) {
  std::cerr << "kgate: error: " << message << "\n";
  return kExitUsage;
}

// Loads rules, printing every problem; nullopt means the rules directory is unusable.
std::optional<kgate::RuleSet> load_rules_or_report(const fs::path& dir) {
  kgate::RuleLoad load = kgate::load_rules(dir, kgate::default_cache_dir());
  if (load.problems.empty()) return std::move(load.rules);
  for (const auto& problem : load.problems) std::cerr << "kgate: error: " << problem.message << "\n";
  std::cerr << "kgate: error: " << load.problems.size() << " problem(s) in " << dir.string()
            << " (see kgate rules --validate)\n";
  return std::nullopt;
}

struct CheckOptions {
  std::string task;
  std::string policy;
  std::string format = "text";
  unsigned jobs = 0;
  std::string fail_on = "error";
  std::string config_file;
  bool dump_config = false;
  bool submission = false;  // each PATH is a directory judged as one submission
  std::string rules_dir;
  std::vector<std::string> only;
  uint64_t max_file_bytes = kgate::ingest::Limits{}.max_file_bytes;
  uint32_t max_nesting = kgate::ingest::Limits{}.max_nesting;
  uint32_t max_embedded_sources = kgate::ingest::Limits{}.max_embedded_sources;
  uint32_t max_file_ms = kgate::ingest::Limits{}.max_file_ms;
  uint64_t max_file_memory = kgate::ingest::Limits{}.max_file_memory;
  std::string cpp_engine = "auto";
  std::string ptx = "auto";
  std::string compile_commands;
  std::string harness;
  std::string contract;
  std::vector<std::string> paths;
};

// The per-file context (config, policy, harness, limits), resolved in the library (GateContext).
kgate::GateOptions gate_options(const CheckOptions& options) {
  kgate::GateOptions gate;
  gate.task = options.task;
  gate.policy = options.policy;
  gate.harness = options.harness;
  gate.contract = options.contract;
  gate.config_file = options.config_file;
  gate.limits.max_file_bytes = options.max_file_bytes;
  gate.limits.max_nesting = options.max_nesting;
  gate.limits.max_embedded_sources = options.max_embedded_sources;
  gate.limits.max_file_ms = options.max_file_ms;
  gate.limits.max_file_memory = options.max_file_memory;
  gate.only = options.only;
  gate.cpp_engine = options.cpp_engine;
  gate.ptx = options.ptx;
  gate.compile_commands = options.compile_commands;
  return gate;
}

// Rules, harness profiles and the context resolver of one run; nullopt after printing why.
struct LoadedGate {
  kgate::RuleSet rules;
  kgate::HarnessSet harnesses;
};

std::optional<LoadedGate> load_gate(const fs::path& rules_dir) {
  auto rules = load_rules_or_report(rules_dir);
  if (!rules) return std::nullopt;
  auto harnesses = kgate::load_harness_profiles(rules_dir);
  if (!harnesses) {
    std::cerr << "kgate: error: " << harnesses.error() << "\n";
    return std::nullopt;
  }
  return LoadedGate{std::move(*rules), std::move(*harnesses)};
}

// The existence of every PATH, directory walks with config excludes, and one context per file:
// what `check` and `audit` share. An error is a usage error.
kgate::Result<std::vector<kgate::BatchItem>> collect_items(const CheckOptions& options, kgate::GateContext& cache) {
  for (const auto& path : options.paths) {
    std::error_code ec;
    if (!fs::exists(path, ec)) return kgate::Error{"no such file or directory: " + path};
  }
  // Directory walks skip what the governing config excludes; files named explicitly are analysed.
  std::string exclude_error;
  const auto excluded = [&](const std::string& path) {
    auto config = cache.config_for(path);
    if (!config) {
      exclude_error = config.error();
      return true;
    }
    return (*config)->excludes(path);
  };
  const std::vector<std::string> files = kgate::discover_files(options.paths, excluded);
  if (!exclude_error.empty()) return kgate::Error{exclude_error};
  std::vector<kgate::BatchItem> items;
  for (const auto& file : files) {
    auto context = cache.context_for(file);
    if (!context) return kgate::Error{context.error()};
    items.push_back({file, *context});
  }
  return items;
}

// `check --dump-config [PATH...]`: the effective configuration of the first PATH, then, for every
// file under the PATHs, the harness profile that applied to it and its verdict. A first comment names
// the rules directory in use (an installed kgate's, the source tree's, or --rules-dir).
int dump_config(const CheckOptions& options, kgate::GateContext& cache, const fs::path& rules_dir) {
  const std::string first = options.paths.empty() ? "." : options.paths.front();
  auto config = cache.config_for(first);
  if (!config) return usage_error(config.error());
  std::cout << "# rules: " << rules_dir.string() << "\n";
  std::cout << kgate::dump_config(**config, cache.policy_name(**config, first), cache.harness_name(**config));
  if (options.paths.empty()) return kExitClean;
  auto items = collect_items(options, cache);
  if (!items) return usage_error(items.error());
  std::cout << "files:\n";
  for (const auto& result : kgate::analyze_batch(*items, options.jobs)) {
    const nlohmann::json path = result.path;  // quoted as a JSON string, which YAML reads back
    std::cout << "  " << path.dump() << ": {harness: " << (result.harness.empty() ? "none" : result.harness)
              << ", contract: " << (result.contract.known() ? result.contract.dtype : "unknown")
              << ", verdict: " << result.verdict << "}\n";
  }
  return kExitClean;
}

int run_check(const CheckOptions& options) {
  const fs::path rules_dir = options.rules_dir.empty() ? kgate::default_rules_dir() : fs::path(options.rules_dir);
  auto gate = load_gate(rules_dir);
  if (!gate) return kExitUsage;
  for (const auto& id : options.only)
    if (!gate->rules.contains(id)) return usage_error("--only: unknown rule '" + id + "'");
  auto made = kgate::GateContext::make(gate_options(options), gate->rules, gate->harnesses, rules_dir);
  if (!made) return usage_error(made.error());
  kgate::GateContext& cache = *made;
  if (options.dump_config) return dump_config(options, cache, rules_dir);
  if (options.paths.empty()) return usage_error("check: no PATH given");
  std::vector<kgate::FileResult> results;
  if (options.submission) {
    // Each directory is one submission: its files are analysed as a batch, then folded (submission.h).
    for (const auto& dir : options.paths) {
      std::error_code ec;
      if (!fs::is_directory(dir, ec)) return usage_error("--submission: not a directory: " + dir);
      CheckOptions one = options;
      one.paths = {dir};
      auto items = collect_items(one, cache);
      if (!items) return usage_error(items.error());
      results.push_back(kgate::fold_submission(dir, kgate::analyze_batch(*items, options.jobs)));
    }
  } else {
    auto items = collect_items(options, cache);
    if (!items) return usage_error(items.error());
    results = kgate::analyze_batch(*items, options.jobs);
  }

  if (options.format == "json")
    std::cout << kgate::to_json(results).dump() << "\n";  // one line: for scripts (jq . pretty-prints)
  else if (options.format == "sarif")
    std::cout << kgate::to_sarif(results, &gate->rules, KGATE_VERSION, fs::current_path().string()).dump(2) << "\n";
  else
    kgate::write_text(std::cout, results, options.submission ? "submission" : "file");

  const kgate::Severity threshold = kgate::parse_severity(options.fail_on).value_or(kgate::Severity::Error);
  for (const auto& result : results)
    for (const auto& finding : result.findings)
      if (finding.severity >= threshold) return kExitFindings;
  return kExitClean;
}

struct AuditCommand {
  CheckOptions check;  // paths, policy/task, jobs, rules dir, engine and limits
  std::string out;
  std::string shard;
  std::string runtime;  // "", "cpu" or "cuda": judge approved files with kgate run
  int runtime_seeds = 0;
  std::string runtime_profile = "full";
  const CLI::Option* ray = nullptr;  // --ray [ADDRESS]: the runtime stage on a Ray cluster
  std::string ray_address;
};

// What an audit's records depend on besides file contents: resuming under other settings is refused.
// The rules and policies count by content, so editing a rule file changes the settings too.
nlohmann::json audit_settings(const CheckOptions& options, const kgate::RuleSet& rules, const fs::path& rules_dir) {
  std::string catalogue;
  const auto add_file = [&](const fs::path& file) {
    catalogue += file.filename().string() + '\0' + kgate::read_file_text(file).value_or("") + '\0';
  };
  for (const auto& rule : rules.rules()) add_file(rule.file);
  std::vector<fs::path> policies;
  std::error_code ec;
  for (auto it = fs::directory_iterator(rules_dir / "policies", ec); !ec && it != fs::directory_iterator();
       it.increment(ec))
    policies.push_back(it->path());
  std::sort(policies.begin(), policies.end());
  for (const auto& policy : policies) add_file(policy);
  std::vector<fs::path> harnesses;
  for (auto it = fs::directory_iterator(rules_dir / "harnesses", ec); !ec && it != fs::directory_iterator();
       it.increment(ec))
    harnesses.push_back(it->path());
  std::sort(harnesses.begin(), harnesses.end());
  for (const auto& harness : harnesses) add_file(harness);
#ifdef KGATE_HAVE_CLANG
  const bool clang = true;
#else
  const bool clang = false;
#endif
  return {{"kgate", KGATE_VERSION},
          {"policy", options.policy},
          {"task", options.task},
          {"harness", options.harness},
          {"contract", options.contract},
          {"cpp_engine", options.cpp_engine},
          {"clang_built_in", clang},
          {"ptx", options.ptx},
          {"ptx_built_in", kgate::ptx::witness_built()},
          {"max_file_bytes", options.max_file_bytes},
          {"rules", kgate::sha256_hex(catalogue)}};
}

// OUT/report.html of an audit's records, with the rules' techniques and summaries.
kgate::Status write_audit_report(const std::vector<nlohmann::json>& records, const kgate::RuleSet& rules,
                                 const fs::path& report, const std::string& title) {
  kgate::audit::ReportCatalogue catalogue;
  for (const auto& rule : rules.rules()) {
    catalogue.techniques[rule.id] = rule.techniques;
    catalogue.summaries[rule.id] = rule.summary;
  }
  return kgate::audit::write_file_atomically(report, kgate::audit::render_html_report(records, catalogue, title));
}

// How many audit records are rejected, and how many unjudged.
std::pair<size_t, size_t> rejected_and_unjudged(const std::vector<nlohmann::json>& records) {
  size_t rejected = 0, unjudged = 0;
  for (const auto& record : records) {
    rejected += record.value("verdict", "") == "reject" ? 1 : 0;
    unjudged += record.value("verdict", "") == "unjudged" ? 1 : 0;
  }
  return {rejected, unjudged};
}

struct AuditMergeCommand {
  std::vector<std::string> inputs;
  std::string out;
  std::string rules_dir;
};

// `kgate audit merge OUT1 OUT2 ... --out OUT`: the shards' logs as one log and one report.
int run_audit_merge(const AuditMergeCommand& command) {
  const fs::path rules_dir = command.rules_dir.empty() ? kgate::default_rules_dir() : fs::path(command.rules_dir);
  auto gate = load_gate(rules_dir);
  if (!gate) return kExitUsage;
  std::vector<fs::path> inputs(command.inputs.begin(), command.inputs.end());
  auto merged = kgate::audit::merge_audits(inputs, command.out);
  if (!merged) {
    std::cerr << "kgate: error: " << merged.error() << "\n";
    return kExitUsage;
  }
  const fs::path report = fs::path(command.out) / "report.html";
  const std::string title = "KernelGate audit (merged from " + std::to_string(merged->inputs) + " logs)";
  if (kgate::Status written = write_audit_report(merged->records, gate->rules, report, title); !written) {
    std::cerr << "kgate: error: " << written.message() << "\n";
    return kExitUsage;
  }
  const auto [rejected, unjudged] = rejected_and_unjudged(merged->records);
  std::cout << "audit merge: " << merged->records.size() << " files from " << merged->inputs << " logs";
  if (merged->duplicates) std::cout << " (" << merged->duplicates << " identical duplicate record(s) kept once)";
  if (merged->torn_dropped) std::cout << " (" << merged->torn_dropped << " torn last line(s) dropped)";
  std::cout << ", " << rejected << " rejected, " << unjudged << " unjudged\n"
            << "audit merge: " << (fs::path(command.out) / kgate::audit::kLogName).string() << "\n"
            << "audit merge: " << report.string() << "\n";
  return kExitClean;
}

// `kgate audit`: exit 0 when the log and the report are written (findings are the audit's data),
// 2 on usage errors and on a log or report that cannot be read or written.
// `--ray DIR`: the option takes an optional ADDRESS ("auto", "host:port", "ray://..."), so a path
// that follows it is one of the audit's, not an address.
void reclaim_path_from_ray(AuditCommand& command) {
  const std::string& value = command.ray_address;
  if (value.empty() || value == "auto" || value.find(':') != std::string::npos || !fs::exists(value)) return;
  command.check.paths.push_back(value);
  command.ray_address.clear();
}

int run_audit(AuditCommand command) {  // a copy: --ray fills in --runtime
  const CheckOptions& options = command.check;
  std::optional<kgate::audit::Shard> shard;
  if (!command.shard.empty()) {
    auto parsed = kgate::audit::parse_shard(command.shard);
    if (!parsed) return usage_error(parsed.error());
    shard = *parsed;
  }
  const fs::path rules_dir = options.rules_dir.empty() ? kgate::default_rules_dir() : fs::path(options.rules_dir);
  auto gate = load_gate(rules_dir);
  if (!gate) return kExitUsage;
  const kgate::RuleSet* rules = &gate->rules;
  auto made = kgate::GateContext::make(gate_options(options), gate->rules, gate->harnesses, rules_dir);
  if (!made) return usage_error(made.error());
  auto items = collect_items(options, *made);
  if (!items) return usage_error(items.error());
  if (shard)
    std::erase_if(*items, [&](const kgate::BatchItem& item) { return !kgate::audit::in_shard(item.path, *shard); });

  kgate::audit::AuditOptions audit_options;
  audit_options.settings = audit_settings(options, *rules, rules_dir);
  audit_options.out_dir = command.out;
  audit_options.jobs = options.jobs;
  audit_options.progress = ::isatty(STDERR_FILENO) == 1;
  const bool ray = command.ray && command.ray->count() > 0;
  if (ray && command.runtime.empty()) command.runtime = "cuda";  // --ray alone: the GPUs of the cluster
  if (!command.runtime.empty()) audit_options.settings["runtime"] = command.runtime;
  if (command.runtime_seeds > 0) audit_options.settings["runtime_seeds"] = command.runtime_seeds;
  if (!command.runtime.empty()) audit_options.settings["runtime_profile"] = command.runtime_profile;
#ifdef KGATE_HAVE_RUNTIME
  if (!command.runtime.empty()) {
    kgate::cli::RuntimeStageOptions runtime;
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return usage_error("--runtime: cannot find this executable: " + ec.message());
    if (ray) {
      // kgate.ray's server, run by the Python beside this kgate (an install's environment), else the
      // build's, which imports the build's kgate package.
      const fs::path python = kgate::cli::companion_path("KGATE_RAY_PYTHON", "python3", KGATE_PYTHON_EXECUTABLE);
      runtime.server = {
          python.string(),         "-m",          "kgate.ray", "serve", "--device", command.runtime, "--profile",
          command.runtime_profile, "--timeout-s", "60"};
      if (!command.ray_address.empty()) runtime.server.insert(runtime.server.end(), {"--address", command.ray_address});
      if (python == fs::path(KGATE_PYTHON_EXECUTABLE) && fs::is_directory(KGATE_PYTHON_PACKAGE_DIR, ec)) {
        const char* path = std::getenv("PYTHONPATH");
        runtime.server_env.push_back(std::string("PYTHONPATH=") + KGATE_PYTHON_PACKAGE_DIR +
                                     (path && *path ? std::string(":") + path : std::string()));
      }
      if (audit_options.jobs == 0) audit_options.jobs = 32;  // files in flight: more than the cluster's actors
    } else {
      runtime.server = {self.string(),           "serve", "--device", command.runtime, "--profile",
                        command.runtime_profile, "--warm"};
    }
    runtime.tasks_dir = rules_dir.parent_path() / "tasks";
    runtime.device = command.runtime;
    runtime.task = options.task;
    runtime.seeds = command.runtime_seeds;
    runtime.profile = command.runtime_profile;
    audit_options.stages.push_back(kgate::cli::make_runtime_stage(runtime));
  }
#else
  if (!command.runtime.empty()) return usage_error("--runtime: this kgate was built without the runtime stage");
#endif
  auto outcome = kgate::audit::run_audit(*items, audit_options);
  if (!outcome) {
    std::cerr << "kgate: error: " << outcome.error() << "\n";
    return kExitUsage;
  }

  const fs::path report = fs::path(command.out) / "report.html";
  const std::string title = "KernelGate audit" + (shard ? " (shard " + command.shard + ")" : std::string{});
  if (kgate::Status written = write_audit_report(outcome->records, *rules, report, title); !written) {
    std::cerr << "kgate: error: " << written.message() << "\n";
    return kExitUsage;
  }
  const auto [rejected, unjudged] = rejected_and_unjudged(outcome->records);
  std::cout << "audit: " << outcome->records.size() << " files (" << outcome->analysed << " analysed, "
            << outcome->reused << " already done";
  if (outcome->torn_dropped) std::cout << ", a torn last line dropped";
  if (outcome->stale_dropped) std::cout << ", " << outcome->stale_dropped << " stale record(s) dropped";
  std::cout << "), " << rejected << " rejected, " << unjudged << " unjudged\n";
  if (!command.runtime.empty()) {
    // The runtime stage's verdicts, counted like the static ones (skipped: rejected statically or no task).
    std::map<std::string, size_t> verdicts;
    size_t skipped = 0, errors = 0;
    for (const auto& record : outcome->records) {
      if (!record.contains("runtime") || !record["runtime"].is_object()) continue;
      const auto& rt = record["runtime"];
      if (rt.contains("verdict") && rt["verdict"].is_string())
        ++verdicts[rt["verdict"].get<std::string>()];
      else if (rt.contains("error"))
        ++errors;
      else
        ++skipped;
    }
    std::cout << "audit: runtime on " << command.runtime << ":";
    for (const auto& [verdict, count] : verdicts) std::cout << " " << count << " " << verdict << ",";
    std::cout << " " << errors << " without a report, " << skipped << " skipped\n";
  }
  std::cout << "audit: " << (fs::path(command.out) / kgate::audit::kLogName).string() << "\n"
            << "audit: " << report.string() << "\n";
  return kExitClean;
}

int run_rules(const std::string& rules_dir_option, bool validate, const std::string& format) {
  const fs::path rules_dir = rules_dir_option.empty() ? kgate::default_rules_dir() : fs::path(rules_dir_option);
  kgate::RuleLoad load = kgate::load_rules(rules_dir);
  std::vector<std::string> problems;
  for (const auto& p : load.problems) problems.push_back(p.message);
  if (validate) {
    // Policies are data too: each must load, and the rule ids they name must exist.
    for (const auto& name : kgate::policy_names(rules_dir / "policies")) {
      auto policy = kgate::load_policy(rules_dir / "policies", name);
      if (!policy) {
        problems.push_back(policy.error());
        continue;
      }
      for (const auto& id : policy->disabled_rules)
        if (id.find_first_of("*?[") == std::string::npos && !load.rules.contains(id))
          problems.push_back("policy " + name + ": disabled_rules names unknown rule '" + id + "'");
      for (const auto& [id, level] : policy->severity_overrides)
        if (id.find_first_of("*?[") == std::string::npos && !load.rules.contains(id))
          problems.push_back("policy " + name + ": severity_overrides names unknown rule '" + id + "'");
    }
    for (const auto& problem : problems) std::cout << "error: " << problem << "\n";
    std::cout << load.rules.size() << " rule(s) valid, " << problems.size() << " problem(s)\n";
    return problems.empty() ? kExitClean : kExitFindings;
  }
  for (const auto& problem : problems) std::cerr << "kgate: error: " << problem << "\n";
  if (format == "markdown") {
    kgate::write_rules_markdown(std::cout, load.rules, rules_dir);
  } else if (format == "json") {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& rule : load.rules.rules())
      list.push_back({{"id", rule.id},
                      {"severity", std::string(kgate::to_string(rule.severity))},
                      {"techniques", rule.techniques},
                      {"summary", rule.summary},
                      {"kind", rule.is_check() ? "check" : "match"},
                      {"file", rule.file}});
    std::cout << list.dump(2) << "\n";
  } else {
    for (const auto& rule : load.rules.rules()) {
      std::string techniques;
      for (const auto& t : rule.techniques) techniques += (techniques.empty() ? "" : ",") + t;
      std::cout << rule.id << "  " << kgate::to_string(rule.severity) << "  [" << techniques << "]  " << rule.summary
                << "\n";
    }
  }
  return problems.empty() ? kExitClean : kExitFindings;
}

// `kgate facts FILE`: the facts the rules see for one file, as JSON (docs/rule-format.md), under the
// same context as `kgate check` (config, --harness, --contract, --task), with the verdict they led to.
int run_facts(const CheckOptions& options, bool reference) {
  if (reference) {
    if (!options.paths.empty()) return usage_error("facts: --reference takes no FILE");
    kgate::write_facts_markdown(std::cout);
    return kExitClean;
  }
  if (options.paths.size() != 1) return usage_error("facts: give exactly one FILE (or --reference)");
  const std::string& path = options.paths.front();
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return usage_error("facts: not a file: " + path);
  const fs::path rules_dir = options.rules_dir.empty() ? kgate::default_rules_dir() : fs::path(options.rules_dir);
  auto gate = load_gate(rules_dir);
  if (!gate) return kExitUsage;
  auto made = kgate::GateContext::make(gate_options(options), gate->rules, gate->harnesses, rules_dir);
  if (!made) return usage_error(made.error());
  auto context = made->context_for(path);
  if (!context) return usage_error(context.error());
  kgate::FactSet facts;
  const kgate::FileResult result = kgate::analyze_file_keeping_facts(path, **context, facts);
  nlohmann::json out = {{"path", path}, {"verdict", result.verdict}, {"facts", kgate::facts_to_json(facts)}};
  nlohmann::json findings = nlohmann::json::array();
  for (const auto& d : result.findings)
    findings.push_back({{"rule", d.rule},
                        {"severity", std::string(kgate::to_string(d.severity))},
                        {"line", d.span.line},
                        {"message", d.message}});
  out["findings"] = findings;
  std::cout << out.dump(2) << "\n";
  return kExitClean;
}

int run_metrics(const std::vector<std::string>& paths, uint64_t max_file_bytes, const std::string& format,
                const std::string& cpp_engine) {
  for (const auto& path : paths) {
    std::error_code ec;
    if (!fs::exists(path, ec)) return usage_error("no such file or directory: " + path);
  }
  kgate::AnalysisContext context;  // no rules: metrics only
  context.limits.max_file_bytes = max_file_bytes;
  context.cpp_engine = cpp_engine;  // which counter measures C++/CUDA: Clang's (auto) or tree-sitter-cuda's
  std::vector<kgate::BatchItem> items;
  for (const auto& file : kgate::discover_files(paths, nullptr)) items.push_back({file, &context});
  const std::vector<kgate::FileResult> results = kgate::analyze_batch(items, 0);
  if (format == "json")
    std::cout << kgate::metrics_to_json(results).dump(2) << "\n";
  else
    kgate::write_metrics_text(std::cout, results);
  return kExitClean;
}

#ifdef KGATE_HAVE_RUNTIME
// `kgate run|tasks|calibrate|speedup ...`: the same command line, handed to kgate-runtime (next to this
// executable, else the one this build produced). Returns only when it cannot be started.
int exec_runtime(char** argv) {
  const fs::path runtime = kgate::cli::companion_path(nullptr, "kgate-runtime", KGATE_RUNTIME_PATH);
  ::execv(runtime.c_str(), argv);
  const int error = errno;
  std::cerr << "kgate: error: cannot start the runtime stage " << runtime << ": " << std::strerror(error) << "\n";
  return kExitUsage;
}
#endif

}  // namespace

int main(int argc, char** argv) {
#ifdef KGATE_HAVE_RUNTIME
  if (argc > 1 && kgate::cli::is_runtime_command(argv[1])) return exec_runtime(argv);
#endif
#ifdef KGATE_HAVE_CLANG
  kgate::cli::register_lazy_clang_engine();  // the optional Clang engine, loaded on first use; tree-sitter-cuda
                                             // otherwise
#endif
  CLI::App app{"KernelGate: decides whether a GPU kernel submission computes with its own kernel"};
  app.set_version_flag("--version", version_text());
  app.require_subcommand(1);

  CheckOptions check;
  CLI::App* check_cmd = app.add_subcommand("check", "run the static gate on files or directories");
  auto* task_opt = check_cmd->add_option("--task", check.task, "task name: its manifest selects the policy");
  check_cmd->add_option("--policy", check.policy, "policy: kernelbench, repository or a task category")
      ->excludes(task_opt);
  check_cmd->add_option(
      "--harness", check.harness,
      "harness profile for every file (rules/harnesses: kernelbench, model-entry, gpumode, output-argument, "
      "operator-library, repository; default: detected per file)");
  check_cmd->add_option(
      "--contract", check.contract,
      "dtype contract of every file (fp32, bf16, fp16, fp8_e4m3, ...: docs/dtype-contract.md; default: --task's, "
      "else the reference beside each file, .kgate.yaml, or the harness's default)");
  check_cmd->add_option("--format", check.format, "output format")->check(CLI::IsMember({"text", "json", "sarif"}));
  check_cmd->add_option("-j,--jobs", check.jobs, "worker threads (0: one per core)");
  check_cmd->add_option("--fail-on", check.fail_on, "lowest severity that makes the exit code 1")
      ->check(CLI::IsMember({"error", "warning", "note"}));
  check_cmd->add_option("--config", check.config_file, "use this config instead of the nearest .kgate.yaml")
      ->check(CLI::ExistingFile);
  check_cmd->add_flag("--dump-config", check.dump_config,
                      "print the effective configuration (and each PATH's harness profile and verdict) and exit");
  check_cmd->add_option("--rules-dir", check.rules_dir,
                        "rules directory (default: $KGATE_RULES_DIR, <exe>/../rules, the source tree)");
  check_cmd->add_option("--only", check.only, "run only this rule (repeatable; fixture mode)")->allow_extra_args(false);
  check_cmd->add_option("--max-file-bytes", check.max_file_bytes, "input-too-large above this size")
      ->check(CLI::PositiveNumber);
  check_cmd->add_option("--max-nesting", check.max_nesting, "input-too-deep above this syntax-tree depth")
      ->check(CLI::PositiveNumber);
  check_cmd
      ->add_option("--max-embedded-sources", check.max_embedded_sources,
                   "input-too-many-sources above this many embedded C++/CUDA sources in one file")
      ->check(CLI::PositiveNumber);
  check_cmd
      ->add_option("--max-file-ms", check.max_file_ms,
                   "input-too-slow when one file takes more CPU milliseconds to analyse (0: no deadline)")
      ->check(CLI::NonNegativeNumber);
  check_cmd
      ->add_option("--max-file-memory", check.max_file_memory,
                   "input-too-much-memory above this many bytes of parser and fact memory for one file (0: no limit)")
      ->check(CLI::NonNegativeNumber);
  check_cmd
      ->add_option("--cpp-engine", check.cpp_engine,
                   "engine for C++/CUDA: auto (Clang where built in), tree-sitter, or none (Python facts only)")
      ->check(CLI::IsMember({"auto", "tree-sitter", "none"}));
  check_cmd
      ->add_option("--ptx", check.ptx,
                   "the PTX witness on CUDA sources: auto (compile each with NVRTC where it is built in) or off")
      ->check(CLI::IsMember({"auto", "off"}));
  check_cmd
      ->add_option("-p,--compile-commands", check.compile_commands,
                   "directory holding compile_commands.json: raw C++ files parse with their real flags and headers")
      ->check(CLI::ExistingDirectory);
  check_cmd->add_flag("--submission", check.submission,
                      "each PATH is a directory holding one submission (solution.py with its sidecar files, helper "
                      "modules, the harness's task.py): one verdict per directory");
  check_cmd->add_option("PATH", check.paths, "files or directories");

  bool validate = false;
  std::string rules_format = "text";
  std::string rules_dir_for_rules;
  CLI::App* rules_cmd = app.add_subcommand("rules", "list every rule, or validate the rule files");
  rules_cmd->add_flag("--validate", validate, "validate every rule and policy file; exit 1 on any problem");
  rules_cmd->add_option("--format", rules_format, "output format (markdown: the README's rules section)")
      ->check(CLI::IsMember({"text", "json", "markdown"}));
  rules_cmd->add_option("--rules-dir", rules_dir_for_rules, "rules directory");

  AuditCommand audit;
  CLI::App* audit_cmd = app.add_subcommand("audit", "audit directories: resumable JSONL results and an HTML report");
  auto* audit_task = audit_cmd->add_option("--task", audit.check.task, "task name: its manifest selects the policy");
  audit_cmd->add_option("--policy", audit.check.policy, "policy: kernelbench, repository or a task category")
      ->excludes(audit_task);
  audit_cmd->add_option("--harness", audit.check.harness,
                        "harness profile for every file (default: detected per file)");
  audit_cmd->add_option("--contract", audit.check.contract,
                        "dtype contract of every file (default: per file, as in check)");
  audit_cmd->add_option("--out", audit.out, "output directory: results.jsonl (appended, resumable) and report.html");
  audit_cmd->add_option("-j,--jobs", audit.check.jobs, "worker threads (0: one per core)");
  audit_cmd->add_option("--shard", audit.shard, "audit only shard K of N (K/N, 1-based; by a hash of each path)");
  audit_cmd->add_option("--rules-dir", audit.check.rules_dir, "rules directory");
  audit_cmd->add_option("--cpp-engine", audit.check.cpp_engine, "engine for C++/CUDA: auto, tree-sitter, or none")
      ->check(CLI::IsMember({"auto", "tree-sitter", "none"}));
  audit_cmd->add_option("--ptx", audit.check.ptx, "the PTX witness on CUDA sources: auto or off")
      ->check(CLI::IsMember({"auto", "off"}));
  audit_cmd->add_option("--max-file-bytes", audit.check.max_file_bytes, "input-too-large above this size")
      ->check(CLI::PositiveNumber);
  audit_cmd->add_option("DIR", audit.check.paths, "directories or files");
  AuditMergeCommand merge;
  CLI::App* merge_cmd =
      audit_cmd->add_subcommand("merge", "merge the --out directories of shard runs into one log and report");
  merge_cmd->add_option("OUT", merge.inputs, "the --out directories of the shards")->required();
  merge_cmd->add_option("--out", merge.out, "output directory for the merged results.jsonl and report.html")
      ->required();
  merge_cmd->add_option("--rules-dir", merge.rules_dir, "rules directory (the report's rule summaries)");
  audit_cmd
      ->add_option("--runtime", audit.runtime,
                   "also judge every approved file with kgate run on this device (its task: --task, or the file's '# "
                   "runtime-task:' line)")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  audit_cmd
      ->add_option("--runtime-seeds", audit.runtime_seeds, "kgate run --seeds for the runtime stage (0: its default)")
      ->check(CLI::NonNegativeNumber);
  audit_cmd
      ->add_option("--runtime-profile", audit.runtime_profile,
                   "kgate run --profile for the runtime stage: full or quick")
      ->check(CLI::IsMember({"full", "quick"}))
      ->capture_default_str();
  audit.ray = audit_cmd
                  ->add_option("--ray", audit.ray_address,
                               "run the runtime stage on a Ray cluster (ADDRESS; none: start a local one): a Verifier "
                               "actor per GPU, -j files in flight (default 32); implies --runtime cuda unless given")
                  ->expected(0, 1);

  CheckOptions facts;
  CLI::App* facts_cmd =
      app.add_subcommand("facts", "print the facts the rules see for one file, as JSON (for rule authors)");
  facts_cmd->add_option("FILE", facts.paths, "a .py, .cu or .cpp file");
  bool facts_reference = false;
  facts_cmd->add_flag("--reference", facts_reference,
                      "print every fact kind and its fields as Markdown (docs/rule-format.md's generated section)");
  auto* facts_task =
      facts_cmd->add_option("--task", facts.task, "task name: its manifest selects the policy and contract");
  facts_cmd->add_option("--policy", facts.policy, "policy: kernelbench, repository or a task category")
      ->excludes(facts_task);
  facts_cmd->add_option("--harness", facts.harness, "harness profile (default: detected)");
  facts_cmd->add_option("--contract", facts.contract, "dtype contract (default: as in check)");
  facts_cmd->add_option("--config", facts.config_file, "use this .kgate.yaml instead of the nearest one");
  facts_cmd->add_option("--rules-dir", facts.rules_dir, "rules directory");
  facts_cmd->add_option("--cpp-engine", facts.cpp_engine, "C++/CUDA engine: auto, tree-sitter or none")
      ->check(CLI::IsMember({"auto", "tree-sitter", "none"}));

  std::vector<std::string> metric_paths;
  uint64_t metric_max_bytes = kgate::ingest::Limits{}.max_file_bytes;
  std::string metric_format = "text";
  std::string metric_cpp_engine = "auto";
  CLI::App* metrics_cmd = app.add_subcommand("metrics", "print maintainability metrics (docs/metrics.md)");
  metrics_cmd->add_option("--format", metric_format, "output format")->check(CLI::IsMember({"text", "json"}));
  metrics_cmd->add_option("PATH", metric_paths, "files or directories")->required();
  metrics_cmd->add_option("--max-file-bytes", metric_max_bytes, "input-too-large above this size")
      ->check(CLI::PositiveNumber);
  metrics_cmd
      ->add_option("--cpp-engine", metric_cpp_engine,
                   "counter for C++/CUDA: auto (Clang where built in) or tree-sitter")
      ->check(CLI::IsMember({"auto", "tree-sitter"}));

#ifdef KGATE_HAVE_RUNTIME
  // Listed for --help only: a command line that starts with one of them went to kgate-runtime above.
  for (const auto& command : kgate::cli::kRuntimeCommands) app.add_subcommand(command.name, command.summary);
#endif

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; every other parse error is a usage error (2), not CLI11's 1xx.
    return app.exit(e) == 0 ? kExitClean : kExitUsage;
  }

  try {
    if (check_cmd->parsed()) return run_check(check);
    if (merge_cmd->parsed()) return run_audit_merge(merge);
    if (audit_cmd->parsed()) {
      if (audit.out.empty()) return usage_error("audit: --out is required");
      reclaim_path_from_ray(audit);
      if (audit.check.paths.empty())
        return usage_error("audit: DIR is required (or `kgate audit merge OUT... --out OUT`)");
      return run_audit(audit);
    }
    if (rules_cmd->parsed()) return run_rules(rules_dir_for_rules, validate, rules_format);
    if (facts_cmd->parsed()) return run_facts(facts, facts_reference);
    if (metrics_cmd->parsed()) return run_metrics(metric_paths, metric_max_bytes, metric_format, metric_cpp_engine);
  } catch (const std::exception& e) {
    std::cerr << "kgate: internal error: " << e.what() << "\n";
    return kExitUsage;
  }
  return kExitUsage;
}
