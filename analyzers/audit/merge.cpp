// Merging audit logs (see merge.h).
#include "analyzers/audit/merge.h"

#include <fstream>
#include <map>
#include <string>

#include "analyzers/audit/audit.h"
#include "analyzers/audit/results_log.h"

namespace kgate::audit {

namespace {

// The keys whose values differ between two settings objects, for the error message.
std::string differing_keys(const nlohmann::json& a, const nlohmann::json& b) {
  std::string out;
  const auto add = [&](const std::string& key) {
    if (out.find(key) == std::string::npos) out += (out.empty() ? "" : ", ") + key;
  };
  for (const auto* side : {&a, &b})
    if (side->is_object())
      for (const auto& [key, value] : side->items())
        if (!a.is_object() || !b.is_object() || !a.contains(key) || !b.contains(key) || a[key] != b[key]) add(key);
  return out.empty() ? "unknown" : out;
}

}  // namespace

Result<MergeOutcome> merge_audits(const std::vector<std::filesystem::path>& inputs,
                                  const std::filesystem::path& out_dir) {
  if (inputs.empty()) return Error{"audit merge: no input directories"};
  std::error_code ec;
  for (const auto& input : inputs)
    if (std::filesystem::weakly_canonical(input, ec) == std::filesystem::weakly_canonical(out_dir, ec))
      return Error{"audit merge: --out " + out_dir.string() + " is also an input; merge into a new directory"};

  MergeOutcome outcome;
  outcome.inputs = inputs.size();
  std::map<std::string, std::pair<nlohmann::json, std::filesystem::path>> by_path;
  std::filesystem::path settings_from;
  for (const auto& input : inputs) {
    const std::filesystem::path log_path = input / kLogName;
    if (!std::filesystem::is_regular_file(log_path, ec))
      return Error{"audit merge: " + input.string() + " holds no " + kLogName + " (is it the --out of an audit?)"};
    auto log = read_log(log_path);
    if (!log) return Error{"audit merge: " + log.error()};
    outcome.torn_dropped += log->torn_bytes > 0 ? 1 : 0;

    nlohmann::json settings;  // null when the input recorded none
    if (std::ifstream in(input / kSettingsName); in) settings = nlohmann::json::parse(in, nullptr, false);
    if (settings.is_discarded()) return Error{"audit merge: " + (input / kSettingsName).string() + " is not JSON"};
    if (!settings.is_null()) {
      if (outcome.settings.is_null()) {
        outcome.settings = settings;
        settings_from = input;
      } else if (settings != outcome.settings) {
        return Error{"audit merge: " + input.string() + " and " + settings_from.string() +
                     " were audited with different settings (" + differing_keys(settings, outcome.settings) +
                     "); merge only shards of one audit"};
      }
    }

    for (auto& record : log->records) {
      const std::string path = record.value("path", "");
      auto [it, inserted] = by_path.try_emplace(path, record, input);
      if (inserted) continue;
      // Timing differs between runs of one file; the verdict, findings and hash must not.
      nlohmann::json a = it->second.first, b = record;
      for (const char* field : kVolatileFields) {
        a.erase(field);
        b.erase(field);
      }
      if (a != b)
        return Error{"audit merge: " + path + " has different records in " + it->second.second.string() + " and " +
                     input.string() + " (did the file change between the runs?); audit it again"};
      ++outcome.duplicates;
    }
  }
  for (auto& [path, entry] : by_path) outcome.records.push_back(std::move(entry.first));

  std::filesystem::create_directories(out_dir, ec);
  if (ec) return Error{"audit merge: cannot create " + out_dir.string() + ": " + ec.message()};
  auto lock = OutputLock::acquire(out_dir);
  if (!lock) return Error{lock.error()};
  if (!outcome.settings.is_null())
    if (Status written = write_file_atomically(out_dir / kSettingsName, outcome.settings.dump(2) + "\n"); !written)
      return Error{written.message()};
  if (Status written = rewrite_log(out_dir / kLogName, outcome.records); !written) return Error{written.message()};
  return outcome;
}

}  // namespace kgate::audit
