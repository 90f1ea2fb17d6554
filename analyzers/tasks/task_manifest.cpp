// Task manifest loading: YAML -> schema check (tasks/task.schema.json, compiled in) -> Task, with the
// cross-field checks a schema cannot say (name = directory, one symbol set, formulas evaluate).
#include "analyzers/tasks/task_manifest.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <system_error>

#include <muParser.h>
#include <nlohmann/json.hpp>

#include "analyzers/core/json_schema.h"
#include "analyzers/tasks/task_schema_json.h"
#include "analyzers/core/yaml_json.h"

namespace kgate::runtime {

namespace fs = std::filesystem;

std::string_view dtype_name(DType d) {
  switch (d) {
    case DType::fp32:
      return "fp32";
    case DType::fp16:
      return "fp16";
    case DType::bf16:
      return "bf16";
    case DType::int8:
      return "int8";
  }
  return "fp32";
}

std::optional<DType> parse_dtype(std::string_view text) {
  for (DType d : {DType::fp32, DType::fp16, DType::bf16, DType::int8})
    if (dtype_name(d) == text) return d;
  return std::nullopt;
}

int dtype_bytes(DType d) {
  switch (d) {
    case DType::fp32:
      return 4;
    case DType::fp16:
    case DType::bf16:
      return 2;
    case DType::int8:
      return 1;
  }
  return 4;
}

std::string_view fill_name(Fill f) {
  switch (f) {
    case Fill::random:
      return "random";
    case Fill::positive:
      return "positive";
    case Fill::nonnegative:
      return "nonnegative";
    case Fill::unit_interval:
      return "unit_interval";
    case Fill::probability:
      return "probability";
    case Fill::keep:
      return "keep";
  }
  return "random";
}

std::optional<Fill> parse_fill(std::string_view name) {
  for (Fill f : {Fill::random, Fill::positive, Fill::nonnegative, Fill::unit_interval, Fill::probability, Fill::keep})
    if (fill_name(f) == name) return f;
  return std::nullopt;
}

std::string_view pattern_name(Pattern p) {
  switch (p) {
    case Pattern::lower_triangular:
      return "lower_triangular";
    case Pattern::upper_triangular:
      return "upper_triangular";
    case Pattern::diagonal:
      return "diagonal";
    case Pattern::symmetric:
      return "symmetric";
    case Pattern::sorted:
      return "sorted";
  }
  return "symmetric";
}

std::optional<Pattern> parse_pattern(std::string_view name) {
  for (Pattern p :
       {Pattern::lower_triangular, Pattern::upper_triangular, Pattern::diagonal, Pattern::symmetric, Pattern::sorted})
    if (pattern_name(p) == name) return p;
  return std::nullopt;
}

Tolerance default_tolerance(DType d) {
  switch (d) {
    case DType::fp32:
      return {1e-4, 1e-4, 1e-5};
    case DType::fp16:
      return {1e-2, 1e-2, 2e-3};
    case DType::bf16:
      return {2e-2, 2e-2, 8e-3};
    case DType::int8:
      return {0.0, 0.0, 0.0};
  }
  return {};
}

const std::vector<std::string>& task_categories() {
  static const std::vector<std::string> kCategories = {"Activation",    "Convolution", "Fusion",    "Index",
                                                       "LinearAlgebra", "Loss",        "Math",      "MatrixMultiply",
                                                       "Normalization", "Optimizer",   "Pooling",   "Quantization",
                                                       "Random",        "Reduce",      "SpatialOps"};
  return kCategories;
}

Tolerance Task::tolerance_for(DType d) const {
  const auto it = tolerance.find(d);
  return it == tolerance.end() ? default_tolerance(d) : it->second;
}

std::vector<std::string> Task::shape_symbols() const {
  std::set<std::string> symbols;
  for (const auto* sets : {&public_shapes, &hidden_shapes})
    for (const auto& set : *sets)
      for (const auto& [symbol, value] : set) symbols.insert(symbol);
  return {symbols.begin(), symbols.end()};
}

namespace {

double floor_of(double v) { return std::floor(v); }
double ceil_of(double v) { return std::ceil(v); }

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

std::string symbols_of(const ShapeSet& set) {
  std::vector<std::string> names;
  for (const auto& [symbol, value] : set) names.push_back(symbol);
  return "{" + join(names) + "}";
}

const JsonSchema* task_schema(std::string& error) {
  static const Result<JsonSchema> schema = []() -> Result<JsonSchema> {
    try {
      return JsonSchema::from_json(nlohmann::json::parse(kTaskSchemaJson), "tasks/task.schema.json");
    } catch (const std::exception& e) {
      return Error{std::string("tasks/task.schema.json (compiled in): ") + e.what()};
    }
  }();
  if (!schema) {
    error = schema.error();
    return nullptr;
  }
  return &schema.value();
}

std::vector<std::string> strings_at(const nlohmann::json& doc, const char* key) {
  std::vector<std::string> out;
  if (doc.contains(key))
    for (const auto& item : doc.at(key)) out.push_back(item.get<std::string>());
  return out;
}

Tolerance tolerance_of(const nlohmann::json& t) {
  return {t.at("atol").get<double>(), t.at("rtol").get<double>(), t.at("norm_rtol").get<double>()};
}

Result<ShapeSet> shape_set_of(const nlohmann::json& item) {
  ShapeSet set;
  for (const auto& [symbol, value] : item.items()) set[symbol] = value.get<std::int64_t>();
  return set;
}

Result<Task> bare_task(const fs::path& file) {
  Task task;
  task.name = file.stem().string();
  // A LeetGPU challenge is always challenge.py: its directory names it (19_reverse_array).
  if (task.name == "challenge" && file.has_parent_path() && !fs::absolute(file).parent_path().filename().empty())
    task.name = fs::absolute(file).parent_path().filename().string();
  task.reference = file;
  task.bare_kernelbench = true;
  task.public_shapes.emplace_back();
  task.policy.category = std::string(kBareTaskPolicy);
  return task;
}

// The checks JSON Schema cannot express; `where` prefixes every message with the manifest's path.
Status check_cross_fields(const Task& task, const nlohmann::json& doc, const std::string& where) {
  if (task.name != task.dir.filename().string())
    return Error{where + ": name: '" + task.name + "' differs from the directory name '" +
                 task.dir.filename().string() + "'"};
  std::error_code ec;
  if (!fs::is_regular_file(task.reference, ec))
    return Error{where + ": reference: " + task.reference.string() + " is missing (every task has a reference.py)"};
  const ShapeSet& first = task.public_shapes.front();
  for (const char* group : {"public", "hidden"}) {
    const auto& sets = std::string_view(group) == "public" ? task.public_shapes : task.hidden_shapes;
    for (std::size_t i = 0; i < sets.size(); ++i) {
      std::vector<std::string> a, b;
      for (const auto& [s, v] : sets[i]) a.push_back(s);
      for (const auto& [s, v] : first) b.push_back(s);
      if (a != b)
        return Error{where + ": shapes." + group + "[" + std::to_string(i) + "]: symbols " + symbols_of(sets[i]) +
                     " differ from shapes.public[0]'s " + symbols_of(first)};
    }
  }
  std::set<std::string> input_names;
  for (std::size_t i = 0; i < task.inputs.size(); ++i)
    if (!input_names.insert(task.inputs[i].name).second)
      return Error{where + ": inputs[" + std::to_string(i) + "].name: '" + task.inputs[i].name + "' is listed twice"};
  for (const auto& [dtype, tol] : task.tolerance)
    if (std::find(task.dtypes.begin(), task.dtypes.end(), dtype) == task.dtypes.end())
      return Error{where + ": tolerance." + std::string(dtype_name(dtype)) + ": " + std::string(dtype_name(dtype)) +
                   " is not one of the task's dtypes"};
  for (const char* field : {"flops", "bytes"}) {
    if (!doc.contains(field)) continue;
    const std::string expr = doc.at(field).get<std::string>();
    for (const char* group : {"public", "hidden"}) {
      const auto& sets = std::string_view(group) == "public" ? task.public_shapes : task.hidden_shapes;
      for (std::size_t i = 0; i < sets.size(); ++i) {
        auto value = eval_formula(expr, sets[i], DType::fp32);
        if (!value) return Error{where + ": " + field + ": " + value.error()};
        if (!std::isfinite(*value) || *value < 0)
          return Error{where + ": " + field + ": '" + expr + "' is " + std::to_string(*value) + " on shapes." + group +
                       "[" + std::to_string(i) + "] (a count must be finite and non-negative)"};
      }
    }
  }
  return Status::ok();
}

Result<Task> task_from_manifest(const fs::path& manifest) {
  const std::string where = manifest.string();
  auto document = load_yaml_as_json(where);
  if (!document) return Error{document.error()};
  std::string schema_error;
  const JsonSchema* schema = task_schema(schema_error);
  if (!schema) return Error{schema_error};
  const auto violations = schema->validate(*document);
  if (!violations.empty()) {
    std::string message = where + ": does not match tasks/task.schema.json:";
    for (const auto& v : violations) message += "\n  " + v;
    return Error{message};
  }
  const nlohmann::json& doc = *document;
  Task task;
  task.manifest = manifest;
  task.dir = manifest.parent_path().empty() ? fs::path(".") : manifest.parent_path();
  task.reference = task.dir / "reference.py";
  task.name = doc.at("name").get<std::string>();
  task.category = doc.at("category").get<std::string>();
  task.description = doc.at("description").get<std::string>();
  task.dtypes.clear();
  for (const auto& d : strings_at(doc, "dtypes")) task.dtypes.push_back(*parse_dtype(d));
  for (const auto& item : doc.at("shapes").at("public")) task.public_shapes.push_back(*shape_set_of(item));
  for (const auto& item : doc.at("shapes").at("hidden")) task.hidden_shapes.push_back(*shape_set_of(item));
  if (doc.contains("inputs")) {
    for (const auto& item : doc.at("inputs")) {
      InputSpec spec;
      spec.name = item.at("name").get<std::string>();
      if (item.contains("fill")) {
        // One kind, or a list of at most one value kind and one pattern (the schema allows the names).
        const auto& fill = item.at("fill");
        for (const auto& kind : fill.is_array() ? fill : nlohmann::json::array({fill})) {
          const auto name = kind.get<std::string>();
          const std::string at = where + ": inputs." + spec.name + ".fill: ";
          if (auto f = parse_fill(name)) {
            if (spec.fill)
              return Error{at + "two value kinds (" + std::string(fill_name(*spec.fill)) + ", " + name + ")"};
            spec.fill = f;
          } else if (auto p = parse_pattern(name)) {
            if (spec.pattern)
              return Error{at + "two patterns (" + std::string(pattern_name(*spec.pattern)) + ", " + name + ")"};
            spec.pattern = p;
          }
        }
      }
      task.inputs.push_back(std::move(spec));
    }
  }
  if (doc.contains("flops")) task.flops = doc.at("flops").get<std::string>();
  if (doc.contains("bytes")) task.bytes = doc.at("bytes").get<std::string>();
  if (doc.contains("tolerance"))
    for (const auto& [dtype, t] : doc.at("tolerance").items()) task.tolerance[*parse_dtype(dtype)] = tolerance_of(t);
  if (doc.value("contract", std::string("elementwise")) == "quantization") {
    task.contract = Contract::quantization;
    const auto& q = doc.at("quantization");
    task.quantization = {q.at("cosine_min").get<double>(), q.at("rel_l1_max").get<double>(),
                         q.at("rmse_max").get<double>()};
  }
  task.special_values = strings_at(doc, "special_values");
  const auto& policy = doc.at("policy");
  task.policy.category = policy.at("category").get<std::string>();
  task.policy.allow = strings_at(policy, "allow");
  task.policy.core = strings_at(policy, "core");
  if (policy.contains("min_own_kernel_share"))
    task.policy.min_own_kernel_share = policy.at("min_own_kernel_share").get<double>();
  task.policy.forbid_library_kernels = policy.value("library_kernels", std::string("forbid")) == "forbid";
  if (auto status = check_cross_fields(task, doc, where); !status) return Error{status.message()};
  return task;
}

}  // namespace

Result<Task> load_task(const fs::path& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    const fs::path manifest = path / "task.yaml";
    if (!fs::is_regular_file(manifest, ec)) return Error{path.string() + ": not a task directory (no task.yaml)"};
    return load_task(manifest);
  }
  if (!fs::is_regular_file(path, ec)) return Error{path.string() + ": no such task file or directory"};
  const auto ext = path.extension().string();
  if (ext == ".py") return bare_task(path);
  if (ext != ".yaml" && ext != ".yml")
    return Error{path.string() + ": expected a task directory, a task.yaml or a KernelBench .py file"};
  try {
    return task_from_manifest(path);
  } catch (const std::exception& e) {
    // Only a schema/loader mismatch could get here; report it rather than crash.
    return Error{path.string() + ": " + e.what()};
  }
}

Result<fs::path> find_task(const fs::path& tasks_dir, std::string_view spec) {
  if (spec.empty()) return Error{"empty task name"};
  std::error_code ec;
  const fs::path as_path(spec);
  if (fs::exists(as_path, ec)) return as_path;
  // Names are searched only inside tasks_dir: `../x` and absolute names do not escape it.
  if (as_path.is_absolute() || spec.find("..") != std::string_view::npos)
    return Error{"unknown task '" + std::string(spec) + "' (no such file or directory)"};
  if (fs::is_regular_file(tasks_dir / as_path / "task.yaml", ec)) return tasks_dir / as_path;
  std::vector<fs::path> matches;
  for (const auto& dir : task_dirs_under(tasks_dir))
    if (dir.filename() == as_path) matches.push_back(dir);
  if (matches.empty())
    return Error{"unknown task '" + std::string(spec) + "': no " + std::string(spec) + "/task.yaml under " +
                 tasks_dir.string()};
  if (matches.size() > 1)
    return Error{"task '" + std::string(spec) + "' is ambiguous: " + matches[0].string() + " and " +
                 matches[1].string()};
  return matches.front();
}

std::vector<fs::path> task_dirs_under(const fs::path& root) {
  std::vector<fs::path> dirs;
  std::error_code ec;
  if (fs::is_regular_file(root / "task.yaml", ec)) dirs.push_back(root);
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file(ec) && it->path().filename() == "task.yaml" && it->path().parent_path() != root)
      dirs.push_back(it->path().parent_path());
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

Result<double> eval_formula(const std::string& expr, const ShapeSet& shape, DType dtype) {
  // muparser binds variables by address: keep the values alive for the whole evaluation.
  std::map<std::string, double> values;
  for (const auto& [symbol, value] : shape) values[symbol] = static_cast<double>(value);
  values["elem"] = dtype_bytes(dtype);
  try {
    mu::Parser parser;
    parser.DefineFun("floor", floor_of);
    parser.DefineFun("ceil", ceil_of);
    for (auto& [symbol, value] : values) parser.DefineVar(symbol, &value);
    parser.SetExpr(expr);
    return parser.Eval();
  } catch (const mu::Parser::exception_type& e) {
    if (e.GetCode() == mu::ecUNASSIGNABLE_TOKEN)
      return Error{"'" + expr + "': unknown symbol '" + e.GetToken() + "' (known: " + [&] {
        std::vector<std::string> names;
        for (const auto& [symbol, value] : values) names.push_back(symbol);
        return join(names);
      }() + ")"};
    return Error{"'" + expr + "': " + e.GetMsg()};
  }
}

}  // namespace kgate::runtime
