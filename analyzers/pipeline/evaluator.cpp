#include "analyzers/pipeline/evaluator.h"

#include <algorithm>
#include <cstdint>
#include <system_error>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "analyzers/pipeline/contract.h"
#include "analyzers/pipeline/pipeline.h"
#include "analyzers/treesitter/ts_node.h"

namespace kgate {

namespace {

// A plain `import M` / `import M as a` binds a name to module M (a dotted import binds its package).
void read_import(TSNode n, std::string_view source, std::map<std::string, std::string>& carriers) {
  for (TSNode part : ts::named_children(n)) {
    if (ts::is(part, "dotted_name") && ts::named_count(part) == 1) {
      const std::string name(ts::text(part, source));
      carriers[name] = name;
    } else if (ts::is(part, "aliased_import")) {
      const TSNode module = ts::field(part, "name");
      if (ts::named_count(module) == 1)
        carriers[std::string(ts::text(ts::field(part, "alias"), source))] = std::string(ts::text(module, source));
    }
  }
}

}  // namespace

std::map<std::string, std::set<std::string>> read_evaluated_names(TSNode root, std::string_view source) {
  std::map<std::string, std::set<std::string>> read;
  std::map<std::string, std::string> carriers;  // name -> the module it holds
  std::map<std::string, TSNode> functions;      // the script's functions by name
  ts::preorder(root, [&](TSNode n) {
    if (ts::is(n, "import_statement")) {
      read_import(n, source, carriers);
    } else if (ts::is(n, "import_from_statement")) {
      const TSNode module = ts::field(n, "module_name");
      if (ts::is(module, "dotted_name") && ts::named_count(module) == 1)
        for (TSNode part : ts::named_children(n)) {
          if (ts_node_eq(part, module)) continue;
          const TSNode name = ts::is(part, "aliased_import") ? ts::field(part, "name") : part;
          if (ts::is(name, "dotted_name"))
            read[std::string(ts::text(module, source))].insert(std::string(ts::text(name, source)));
        }
    } else if (ts::is(n, "function_definition")) {
      functions.emplace(std::string(ts::text(ts::field(n, "name"), source)), n);
    }
    return true;
  });
  // Names that come to hold a module: a function's result that returns one, a name assigned one, a
  // parameter handed one. Names, not scopes: an evaluator script is small, and an extra name only
  // offers an entry the submission must also define.
  std::map<std::string, std::string> returns;  // function -> the module it returns
  // The module `e` holds: a name that holds one, or a call of a function that returns one.
  const auto held = [&](TSNode e) -> const std::string* {
    if (ts::is(e, "call")) {
      const auto it = returns.find(std::string(ts::text(ts::field(e, "function"), source)));
      return it == returns.end() ? nullptr : &it->second;
    }
    if (!ts::is(e, "identifier")) return nullptr;
    const auto it = carriers.find(std::string(ts::text(e, source)));
    return it == carriers.end() ? nullptr : &it->second;
  };
  for (size_t round = 0, before = SIZE_MAX; round < 8 && before != carriers.size() + returns.size(); ++round) {
    before = carriers.size() + returns.size();
    ts::preorder(root, [&](TSNode n) {
      if (ts::is(n, "return_statement")) {
        const std::string* m = held(ts::named_child(n, 0));
        for (TSNode f = ts::parent(n); m && !ts_node_is_null(f); f = ts::parent(f))
          if (ts::is(f, "function_definition")) {
            returns.emplace(std::string(ts::text(ts::field(f, "name"), source)), *m);
            break;
          }
      } else if (ts::is(n, "assignment") && ts::is(ts::field(n, "left"), "identifier")) {
        if (const std::string* m = held(ts::field(n, "right")))
          carriers.emplace(std::string(ts::text(ts::field(n, "left"), source)), *m);
      } else if (ts::is(n, "call")) {
        const auto f = functions.find(std::string(ts::text(ts::field(n, "function"), source)));
        if (f == functions.end()) return true;
        const std::vector<TSNode> params = ts::named_children(ts::field(f->second, "parameters"));
        uint32_t i = 0;
        for (TSNode arg : ts::named_children(ts::field(n, "arguments"))) {
          if (ts::is(arg, "keyword_argument") || i >= params.size()) break;
          const TSNode param = ts::is(params[i], "identifier") ? params[i] : TSNode{};
          if (const std::string* m = held(arg); m && !ts_node_is_null(param))
            carriers.emplace(std::string(ts::text(param, source)), *m);
          ++i;
        }
      }
      return true;
    });
  }
  // The strings a `for` loop around `n` iterates its target `name` over, written out.
  const auto loop_strings = [&](TSNode n, std::string_view name) {
    std::vector<std::string> out;
    for (TSNode p = ts::parent(n); !ts_node_is_null(p); p = ts::parent(p)) {
      if (!ts::is(p, "for_statement") || ts::text(ts::field(p, "left"), source) != name) continue;
      for (TSNode e : ts::named_children(ts::field(p, "right")))
        if (auto s = string_value(e, source)) out.push_back(*s);
      break;
    }
    return out;
  };
  ts::preorder(root, [&](TSNode n) {
    if (ts::is(n, "attribute")) {
      if (const std::string* m = held(ts::field(n, "object")))
        read[*m].insert(std::string(ts::text(ts::field(n, "attribute"), source)));
    } else if (ts::is(n, "call")) {
      const std::string_view fn = ts::text(ts::field(n, "function"), source);
      const TSNode args = ts::field(n, "arguments");
      if ((fn != "hasattr" && fn != "getattr") || ts::named_count(args) < 2) return true;
      const std::string* m = held(ts::named_child(args, 0));
      const TSNode name = ts::named_child(args, 1);
      if (!m) return true;
      if (auto s = string_value(name, source)) read[*m].insert(*s);
      if (ts::is(name, "identifier"))
        for (std::string& s : loop_strings(n, ts::text(name, source))) read[*m].insert(std::move(s));
    }
    return true;
  });
  for (auto& [module, names] : read) std::erase_if(names, [](const std::string& s) { return s.rfind("__", 0) == 0; });
  return read;
}

std::set<std::string> submission_module_names(const std::filesystem::path& path) {
  std::set<std::string> names{path.stem().string()};
  const std::filesystem::path task = path.parent_path() / "task.yml";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(task, ec) || std::filesystem::file_size(task, ec) > (1u << 20)) return names;
  try {
    const YAML::Node doc = YAML::LoadFile(task.string());
    if (doc.IsMap() && doc["files"] && doc["files"].IsSequence())
      for (const YAML::Node& f : doc["files"])
        if (f.IsMap() && f["source"] && f["name"] && f["source"].as<std::string>() == "@SUBMISSION@")
          names.insert(std::filesystem::path(f["name"].as<std::string>()).stem().string());
  } catch (const YAML::Exception&) {
    // A task.yml that does not parse names no module: the file's stem stands.
  }
  return names;
}

HarnessChoice with_entries_beside(const std::string& path, const AnalysisContext& context, HarnessChoice choice) {
  if (!choice.forced.empty() || !choice.extra_entry_functions.empty()) return choice;
  if (std::filesystem::path(path).extension() != ".py") return choice;
  const HarnessSet& set = choice.set ? *choice.set : default_harnesses();
  std::set<std::string> modules;
  for (const HarnessProfile& profile : set.profiles())
    for (const std::string& name : profile.reference_files) {
      const auto found = summary_beside(path, name, context);
      if (!found) continue;
      if (modules.empty()) modules = submission_module_names(path);
      for (const std::string& module : modules)
        if (const auto it = found->evaluated.find(module); it != found->evaluated.end())
          for (const std::string& entry : it->second)
            if (std::find(choice.extra_entry_functions.begin(), choice.extra_entry_functions.end(), entry) ==
                choice.extra_entry_functions.end())
              choice.extra_entry_functions.push_back(entry);
      if (!choice.extra_entry_functions.empty()) {
        choice.evaluator_profile = &profile;
        return choice;
      }
    }
  return choice;
}

}  // namespace kgate
