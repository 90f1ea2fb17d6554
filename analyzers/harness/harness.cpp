// Harness profiles: loading rules/harnesses/*.yaml and recognising which one a file belongs to.
#include "analyzers/harness/harness.h"

#include <algorithm>
#include <cstdlib>
#include <system_error>

#include "analyzers/core/data_dir.h"
#include "analyzers/core/glob.h"
#include "analyzers/core/json_schema.h"
#include "analyzers/core/yaml_json.h"

namespace kgate {

namespace {

bool any_named(const std::vector<std::string>& wanted, const std::vector<std::string>& present) {
  return std::any_of(wanted.begin(), wanted.end(), [&](const std::string& w) {
    return std::find(present.begin(), present.end(), w) != present.end();
  });
}

// `#include "task.h"` also matches "../task.h" and "include/task.h".
bool any_included(const std::vector<std::string>& wanted, const std::vector<std::string>& includes) {
  return std::any_of(includes.begin(), includes.end(), [&](const std::string& inc) {
    const std::string base = std::filesystem::path(inc).filename().string();
    return std::find(wanted.begin(), wanted.end(), base) != wanted.end();
  });
}

std::vector<std::string> strings_at(const nlohmann::json& doc, const char* key) {
  std::vector<std::string> out;
  if (doc.is_object() && doc.contains(key))
    for (const auto& item : doc.at(key)) out.push_back(item.get<std::string>());
  return out;
}

int tri_state(const nlohmann::json& doc, const char* key) {
  if (!doc.contains(key)) return -1;
  return doc.at(key).get<bool>() ? 1 : 0;
}

}  // namespace

std::string_view to_string(WithoutEntry value) {
  switch (value) {
    case WithoutEntry::Unjudged:
      return "unjudged";
    case WithoutEntry::NotASubmission:
      return "not-a-submission";
    case WithoutEntry::Judged:
      return "judged";
  }
  return "unjudged";
}

bool HarnessSignal::holds(const ModuleOutline& outline) const {
  if (kind >= 0 && (kind == 0) != outline.python) return false;
  if (!classes.empty() && !any_named(classes, outline.classes)) return false;
  if (!functions.empty() && !any_named(functions, outline.functions)) return false;
  if (!c_functions.empty() && !any_named(c_functions, outline.c_functions)) return false;
  if (!includes.empty() && !any_included(includes, outline.includes)) return false;
  if (own_kernels >= 0 && (own_kernels == 1) != outline.own_kernels) return false;
  if (module_class >= 0 && (module_class == 1) != outline.module_class) return false;
  if (config_entry_function >= 0 && (config_entry_function == 1) != outline.config_entry_function) return false;
  return true;
}

std::optional<int> HarnessProfile::recognition(const ModuleOutline& outline) const {
  std::optional<int> best;
  for (const HarnessSignal& s : recognise)
    if (s.holds(outline)) best = std::max(best.value_or(s.priority.value_or(priority)), s.priority.value_or(priority));
  return best;
}

bool HarnessProfile::names_reference(std::string_view file_name) const {
  return glob_match_any(reference_files, file_name);
}
bool HarnessProfile::allows_import(std::string_view module) const { return glob_match_any(imports_allowed, module); }
bool HarnessProfile::forbids_import(std::string_view module) const { return glob_match_any(imports_forbidden, module); }
bool HarnessProfile::output_parameter(std::string_view name) const { return glob_match_any(outputs, name); }

const HarnessProfile* HarnessSet::find(std::string_view name) const {
  for (const auto& p : profiles_)
    if (p.name == name) return &p;
  return nullptr;
}

const HarnessProfile* HarnessSet::select(const ModuleOutline& outline, std::string_view forced) const {
  if (!forced.empty()) return find(forced);
  const HarnessProfile* chosen = nullptr;
  int chosen_rank = 0;
  for (const auto& p : profiles_) {  // sorted by the profile's priority, then name: the first of a tie wins
    const std::optional<int> rank = p.recognition(outline);
    if (rank && (!chosen || *rank > chosen_rank)) {
      chosen = &p;
      chosen_rank = *rank;
    }
  }
  return chosen;
}

const HarnessProfile* HarnessSet::naming_reference(std::string_view file_name) const {
  for (const auto& p : profiles_)
    if (p.names_reference(file_name)) return &p;
  return nullptr;
}

void HarnessSet::add(HarnessProfile profile) {
  profiles_.push_back(std::move(profile));
  std::stable_sort(profiles_.begin(), profiles_.end(), [](const HarnessProfile& a, const HarnessProfile& b) {
    return a.priority != b.priority ? a.priority > b.priority : a.name < b.name;
  });
}

std::vector<std::string> HarnessSet::names() const {
  std::vector<std::string> out;
  for (const auto& p : profiles_) out.push_back(p.name);
  std::sort(out.begin(), out.end());
  return out;
}

const HarnessProfile* HarnessChoice::select(const ModuleOutline& outline) const {
  ModuleOutline seen = outline;
  seen.config_entry_function = any_named(extra_entry_functions, outline.functions);
  if (forced.empty() && evaluator_profile && seen.config_entry_function) return evaluator_profile;
  return (set ? *set : default_harnesses()).select(seen, forced);
}

const HarnessProfile* HarnessChoice::naming_reference(std::string_view file_name) const {
  if (!forced.empty()) return nullptr;
  return (set ? *set : default_harnesses()).naming_reference(file_name);
}

const HarnessSet& default_harnesses() {
  static const HarnessSet set = [] {
    auto loaded = load_harnesses(default_rules_dir() / "harnesses");
    return loaded ? std::move(*loaded) : HarnessSet{};
  }();
  return set;
}

Result<HarnessSet> load_harnesses(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return Error{"no harness profiles directory " + dir.string()};
  auto schema = JsonSchema::load((dir / "harness.schema.json").string());
  if (!schema) return Error{schema.error()};
  std::vector<std::filesystem::path> files;
  for (auto it = std::filesystem::directory_iterator(dir, ec); !ec && it != std::filesystem::directory_iterator();
       it.increment(ec))
    if (it->path().extension() == ".yaml") files.push_back(it->path());
  std::sort(files.begin(), files.end());
  HarnessSet set;
  for (const auto& file : files) {
    auto document = load_yaml_as_json(file.string());
    if (!document) return Error{document.error()};
    const auto violations = schema->validate(*document);
    if (!violations.empty()) {
      std::string message = file.string() + ": does not match harness.schema.json:";
      for (const auto& v : violations) message += "\n  " + v;
      return Error{message};
    }
    const nlohmann::json& doc = *document;
    HarnessProfile p;
    p.name = doc.at("name").get<std::string>();
    if (p.name != file.stem().string())
      return Error{file.string() + ": name '" + p.name + "' differs from the file name"};
    if (set.find(p.name)) return Error{file.string() + ": duplicate harness profile '" + p.name + "'"};
    p.summary = doc.at("summary").get<std::string>();
    p.priority = doc.at("priority").get<int>();
    for (const auto& alt : doc.at("recognise")) {
      HarnessSignal s;
      if (alt.contains("kind")) s.kind = alt.at("kind").get<std::string>() == "python" ? 0 : 1;
      s.classes = strings_at(alt, "class");
      s.functions = strings_at(alt, "function");
      s.c_functions = strings_at(alt, "c_function");
      s.includes = strings_at(alt, "include");
      s.own_kernels = tri_state(alt, "own_kernels");
      s.module_class = tri_state(alt, "module_class");
      s.config_entry_function = tri_state(alt, "config_entry_function");
      if (alt.contains("priority")) s.priority = alt.at("priority").get<int>();
      p.recognise.push_back(std::move(s));
    }
    const nlohmann::json& entry = doc.at("entry");
    p.entry_classes = strings_at(entry, "classes");
    p.entry_methods = strings_at(entry, "methods");
    p.entry_functions = strings_at(entry, "functions");
    p.outputs = strings_at(entry, "outputs");
    if (doc.contains("imports")) {
      p.imports_allowed = strings_at(doc.at("imports"), "allowed");
      p.imports_forbidden = strings_at(doc.at("imports"), "forbidden");
    }
    p.reference_files = strings_at(doc, "reference_files");
    p.reference_functions = strings_at(doc, "reference_functions");
    const std::string without = doc.at("without_entry").get<std::string>();
    p.without_entry = without == "not-a-submission" ? WithoutEntry::NotASubmission
                      : without == "judged"         ? WithoutEntry::Judged
                                                    : WithoutEntry::Unjudged;
    if (doc.contains("contract")) {
      p.contract_reference = strings_at(doc.at("contract"), "reference");
      p.contract_default = doc.at("contract").value("default", std::string());
    }
    if (doc.contains("runtime")) p.runtime_call = doc.at("runtime").value("call", std::string());
    p.file = file.string();
    set.add(std::move(p));
  }
  if (set.profiles().empty()) return Error{"no harness profiles in " + dir.string()};
  return set;
}

}  // namespace kgate
