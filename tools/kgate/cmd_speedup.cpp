// `kgate speedup REPORT...`: fast_p (p = 0, 1, 1.5, 2) and the geometric-mean speedup over a batch of
// `kgate run --format json` reports, for the whole batch and per task category, with each report's
// speedup and roofline utilisation. The arithmetic is runtime/profile's; this is reading and printing.
#include "tools/kgate/cmd_speedup.h"

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runtime/profile.h"
#include "tools/kgate/runtime_commands.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace kgate::cli {
namespace {

struct SpeedupOptions {
  std::vector<std::string> paths;
  std::string format = "text";
};

struct Row {
  std::string source;
  std::string task;
  std::string category;
  std::string verdict;
  bool timed = false;
  double speedup = 0.0;
  std::optional<double> utilisation;
};

// One report, a JSON array of them, or JSON lines; every element must look like kgate run's report.
Status read_reports(const fs::path& path, std::vector<Row>& rows) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path.string() + ": cannot be read"};
  std::ostringstream text;
  text << in.rdbuf();
  std::vector<json> documents;
  if (auto whole = json::parse(text.str(), nullptr, false); !whole.is_discarded()) {
    if (whole.is_array())
      documents.assign(whole.begin(), whole.end());
    else
      documents.push_back(whole);
  } else {
    std::istringstream lines(text.str());
    std::string line;
    int number = 0;
    while (std::getline(lines, line)) {
      ++number;
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      auto one = json::parse(line, nullptr, false);
      if (one.is_discarded())
        return Error{path.string() + ":" + std::to_string(number) +
                     ": not JSON (a kgate run --format json report, or JSON lines of them)"};
      documents.push_back(std::move(one));
    }
  }
  for (std::size_t i = 0; i < documents.size(); ++i) {
    const json& d = documents[i];
    const std::string where = path.string() + (documents.size() > 1 ? " [" + std::to_string(i) + "]" : "");
    if (!d.is_object() || !d.contains("task") || !d.contains("verdict") || !d["task"].is_string() ||
        !d["verdict"].is_string())
      return Error{where + ": not a kgate run report (needs \"task\" and \"verdict\")"};
    Row row;
    row.source = where;
    row.task = d["task"].get<std::string>();
    row.category = d.value("category", std::string());
    if (row.category.empty()) row.category = "uncategorised";
    row.verdict = d["verdict"].get<std::string>();
    if (d.contains("timing") && d["timing"].is_object()) {
      const json& t = d["timing"];
      if (t.contains("speedup") && t["speedup"].is_number()) {
        row.timed = true;
        row.speedup = t["speedup"].get<double>();
      }
      if (t.contains("roofline") && t["roofline"].is_object() && t["roofline"].contains("utilisation"))
        row.utilisation = t["roofline"]["utilisation"].get<double>();
    }
    rows.push_back(std::move(row));
  }
  return Status::ok();
}

std::string percent(double share) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(0) << 100.0 * share << "%";
  return out.str();
}

int speedup(const SpeedupOptions& o) {
  std::vector<fs::path> files;
  for (const auto& p : o.paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      for (const auto& entry : fs::recursive_directory_iterator(p, ec))
        if (entry.is_regular_file() && (entry.path().extension() == ".json" || entry.path().extension() == ".jsonl"))
          files.push_back(entry.path());
    } else if (fs::is_regular_file(p, ec)) {
      files.push_back(p);
    } else {
      std::cerr << "kgate: error: no such file or directory: " << p << "\n";
      return 2;
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<Row> rows;
  for (const auto& f : files)
    if (Status s = read_reports(f, rows); !s) {
      std::cerr << "kgate: error: " << s.message() << "\n";
      return 2;
    }
  if (rows.empty()) {
    std::cerr << "kgate: error: no reports found\n";
    return 2;
  }
  // A pass without timing (a CPU run, or --timed-calls 0) has no speedup: left out of the tables, named.
  std::vector<runtime::TaskOutcome> outcomes;
  std::vector<const Row*> untimed;
  for (const auto& r : rows) {
    if (r.verdict == "pass" && !r.timed) {
      untimed.push_back(&r);
      continue;
    }
    outcomes.push_back({r.task, r.category, r.verdict == "pass", r.speedup});
  }
  const auto table = runtime::fast_p_table(outcomes);
  if (o.format == "json") {
    json out{{"thresholds", runtime::fast_p_thresholds()}, {"categories", json::array()}, {"reports", json::array()}};
    for (const auto& row : table) {
      json fast = json::object();
      for (const auto& [p, share] : row.fast_p) {
        std::ostringstream key;
        key << "fast_" << p;
        fast[key.str()] = share;
      }
      out["categories"].push_back({{"category", row.category},
                                   {"reports", row.tasks},
                                   {"fast_p", fast},
                                   {"geomean_speedup", row.geomean_speedup}});
    }
    for (const auto& r : rows) {
      json item{
          {"source", r.source}, {"task", r.task}, {"category", r.category}, {"verdict", r.verdict}, {"timed", r.timed}};
      if (r.timed) item["speedup"] = r.speedup;
      if (r.utilisation) item["roofline_utilisation"] = *r.utilisation;
      out["reports"].push_back(std::move(item));
    }
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  std::cout << std::left << std::setw(20) << "category" << std::setw(9) << "reports";
  for (double p : runtime::fast_p_thresholds()) {
    std::ostringstream head;
    head << "fast_" << p;
    std::cout << std::setw(10) << head.str();
  }
  std::cout << "geomean speedup (correct only)\n";
  for (const auto& row : table) {
    std::cout << std::setw(20) << row.category << std::setw(9) << row.tasks;
    for (double p : runtime::fast_p_thresholds()) std::cout << std::setw(10) << percent(row.fast_p.at(p));
    std::ostringstream g;
    g << std::fixed << std::setprecision(2) << row.geomean_speedup << "x";
    std::cout << (row.geomean_speedup > 0 ? g.str() : "-") << "\n";
  }
  std::cout << "\n"
            << std::setw(28) << "task" << std::setw(20) << "category" << std::setw(16) << "verdict" << std::setw(10)
            << "speedup" << "roofline utilisation\n";
  for (const auto& r : rows) {
    std::ostringstream s, u;
    s << std::fixed << std::setprecision(2) << r.speedup << "x";
    if (r.utilisation) u << std::fixed << std::setprecision(1) << 100.0 * *r.utilisation << "%";
    std::cout << std::setw(28) << r.task << std::setw(20) << r.category << std::setw(16) << r.verdict << std::setw(10)
              << (r.timed ? s.str() : "-") << (r.utilisation ? u.str() : "-") << "\n";
  }
  if (!untimed.empty()) {
    std::cout << "\n" << untimed.size() << " passing report(s) without timing, left out of the tables:";
    for (const auto* r : untimed) std::cout << " " << r->source;
    std::cout << "\n";
  }
  return 0;
}

}  // namespace

RegisteredCommand add_speedup_command(CLI::App& parent) {
  auto options = std::make_shared<SpeedupOptions>();
  CLI::App* cmd = parent.add_subcommand("speedup", runtime_command_summary("speedup"));
  cmd->add_option("REPORT", options->paths,
                  "kgate run --format json reports (files, JSON lines, or directories of .json)")
      ->required();
  cmd->add_option("--format", options->format, "output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  return {cmd, [options] { return speedup(*options); }};
}

}  // namespace kgate::cli
