// The calibration cache: JSON with a schema, read and written whole.
#include "runtime/calibration.h"

#include <fstream>
#include <set>
#include <sstream>
#include <system_error>

#include <nlohmann/json.hpp>

#include "analyzers/core/json_schema.h"

namespace kgate::runtime {
namespace {

constexpr int kCacheVersion = 1;

// The schema of the cache file; peaks are the names of calibration_peak_names().
constexpr const char* kCalibrationSchemaJson = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object",
  "additionalProperties": false,
  "required": ["version", "entries"],
  "properties": {
    "version": {"const": 1},
    "entries": {
      "type": "array",
      "items": {
        "type": "object",
        "additionalProperties": false,
        "required": ["gpu", "driver", "sm_clock_mhz", "mem_clock_mhz", "peaks"],
        "properties": {
          "gpu": {"type": "string", "minLength": 1},
          "driver": {"type": "string", "minLength": 1},
          "sm_clock_mhz": {"type": "integer", "minimum": 1},
          "mem_clock_mhz": {"type": "integer", "minimum": 1},
          "peaks": {
            "type": "object",
            "additionalProperties": false,
            "required": ["d2d_bandwidth", "fp32_fma"],
            "properties": {
              "d2d_bandwidth": {"$ref": "#/definitions/figure"},
              "fp32_fma": {"$ref": "#/definitions/figure"},
              "matmul_tf32": {"$ref": "#/definitions/figure"},
              "matmul_bf16": {"$ref": "#/definitions/figure"},
              "matmul_fp16": {"$ref": "#/definitions/figure"},
              "matmul_fp8": {"$ref": "#/definitions/figure"},
              "matmul_int8": {"$ref": "#/definitions/figure"}
            }
          }
        }
      }
    }
  },
  "definitions": {
    "figure": {
      "type": "object",
      "additionalProperties": false,
      "minProperties": 1,
      "properties": {
        "measured": {"type": "number", "exclusiveMinimum": 0},
        "datasheet": {"type": "number", "exclusiveMinimum": 0}
      }
    }
  }
})json";

const Result<JsonSchema>& calibration_schema() {
  static const Result<JsonSchema> schema =
      JsonSchema::from_json(nlohmann::json::parse(kCalibrationSchemaJson), "the calibration cache schema");
  return schema;
}

Calibration entry_from_json(const nlohmann::json& j) {
  Calibration c;
  c.gpu = j.at("gpu").get<std::string>();
  c.driver = j.at("driver").get<std::string>();
  c.sm_clock_mhz = j.at("sm_clock_mhz").get<int>();
  c.mem_clock_mhz = j.at("mem_clock_mhz").get<int>();
  for (const auto& [name, figure] : j.at("peaks").items()) {
    PeakFigure f;
    if (figure.contains("measured")) f.measured = figure.at("measured").get<double>();
    if (figure.contains("datasheet")) f.datasheet = figure.at("datasheet").get<double>();
    c.peaks[name] = f;
  }
  return c;
}

nlohmann::json entry_to_json(const Calibration& c) {
  nlohmann::json peaks = nlohmann::json::object();
  for (const auto& [name, figure] : c.peaks) {
    nlohmann::json f = nlohmann::json::object();
    if (figure.measured) f["measured"] = *figure.measured;
    if (figure.datasheet) f["datasheet"] = *figure.datasheet;
    peaks[name] = f;
  }
  return {{"gpu", c.gpu},
          {"driver", c.driver},
          {"sm_clock_mhz", c.sm_clock_mhz},
          {"mem_clock_mhz", c.mem_clock_mhz},
          {"peaks", peaks}};
}

}  // namespace

const std::vector<std::string>& calibration_peak_names() {
  static const std::vector<std::string> names{"d2d_bandwidth", "fp32_fma",   "matmul_tf32", "matmul_bf16",
                                              "matmul_fp16",   "matmul_fp8", "matmul_int8"};
  return names;
}

std::string Calibration::key() const {
  return gpu + "|" + driver + "|" + std::to_string(sm_clock_mhz) + "|" + std::to_string(mem_clock_mhz);
}

const Calibration* CalibrationCache::find(std::string_view key) const {
  for (const auto& entry : entries) {
    if (entry.key() == key) return &entry;
  }
  return nullptr;
}

void CalibrationCache::upsert(Calibration calibration) {
  for (auto& entry : entries) {
    if (entry.key() == calibration.key()) {
      entry = std::move(calibration);
      return;
    }
  }
  entries.push_back(std::move(calibration));
}

Result<DevicePeaks> device_peaks(const Calibration& c, std::string_view compute_peak) {
  auto figure = [&](std::string_view name) -> std::optional<double> {
    auto it = c.peaks.find(std::string(name));
    return it == c.peaks.end() ? std::nullopt : it->second.best();
  };
  const auto bandwidth = figure("d2d_bandwidth");
  const auto rate = figure(compute_peak);
  if (!bandwidth) return Error{c.key() + ": no d2d_bandwidth figure"};
  if (!rate) return Error{c.key() + ": no " + std::string(compute_peak) + " figure"};
  return DevicePeaks{*bandwidth, *rate};
}

Result<CalibrationCache> parse_calibration_cache(const std::string& text, const std::string& source) {
  const auto document = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded()) return Error{source + ": not valid JSON"};
  const auto& schema = calibration_schema();
  if (!schema) return Error{schema.error()};
  if (auto problems = schema->validate(document); !problems.empty()) {
    std::string message = source + ": invalid calibration cache:";
    for (const auto& problem : problems) message += "\n  " + problem;
    return Error{message};
  }
  CalibrationCache cache;
  std::set<std::string> keys;
  for (const auto& j : document.at("entries")) {
    auto entry = entry_from_json(j);
    if (!keys.insert(entry.key()).second) return Error{source + ": two entries for " + entry.key()};
    cache.entries.push_back(std::move(entry));
  }
  return cache;
}

Result<CalibrationCache> read_calibration_cache(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return CalibrationCache{};
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path.string() + ": cannot be read"};
  std::ostringstream text;
  text << in.rdbuf();
  return parse_calibration_cache(text.str(), path.string());
}

std::string calibration_cache_json(const CalibrationCache& cache) {
  nlohmann::json entries = nlohmann::json::array();
  for (const auto& entry : cache.entries) entries.push_back(entry_to_json(entry));
  return nlohmann::json{{"version", kCacheVersion}, {"entries", entries}}.dump(2) + "\n";
}

Status write_calibration_cache(const std::filesystem::path& path, const CalibrationCache& cache) {
  const auto text = calibration_cache_json(cache);
  // What we write must read back: a peak that is zero or negative is refused here, not on the next run.
  if (auto check = parse_calibration_cache(text, path.string()); !check) return Error{check.error()};
  auto temporary = path;
  temporary += ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) return Error{temporary.string() + ": cannot be written"};
    out << text;
    if (!out.flush()) return Error{temporary.string() + ": write failed"};
  }
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) return Error{path.string() + ": " + ec.message()};
  return Status::ok();
}

}  // namespace kgate::runtime
