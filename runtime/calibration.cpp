// The calibration cache: JSON with a schema, read and written whole.
#include "runtime/calibration.h"

#include <algorithm>
#include <cstdlib>
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

namespace {

// Dense figures from NVIDIA's product datasheets (tensor-core rates without structured sparsity;
// d2d_bandwidth is the DRAM bandwidth). Keys are the names CUDA reports.
const std::map<std::string, std::map<std::string, double>>& datasheet_table() {
  static const std::map<std::string, std::map<std::string, double>> table = [] {
    const auto hopper = [](double bandwidth, double fp32, double tf32, double half, double eight) {
      return std::map<std::string, double>{{"d2d_bandwidth", bandwidth}, {"fp32_fma", fp32},    {"matmul_tf32", tf32},
                                           {"matmul_bf16", half},        {"matmul_fp16", half}, {"matmul_fp8", eight},
                                           {"matmul_int8", eight}};
    };
    const auto ampere = [](double bandwidth) {
      return std::map<std::string, double>{{"d2d_bandwidth", bandwidth}, {"fp32_fma", 19.5e12},
                                           {"matmul_tf32", 156e12},      {"matmul_bf16", 312e12},
                                           {"matmul_fp16", 312e12},      {"matmul_int8", 624e12}};
    };
    return std::map<std::string, std::map<std::string, double>>{
        {"NVIDIA H100 80GB HBM3", hopper(3.35e12, 66.9e12, 494.7e12, 989.4e12, 1978.9e12)},
        {"NVIDIA H100 PCIe", hopper(2.0e12, 51.2e12, 378e12, 756e12, 1513e12)},
        {"NVIDIA H100 NVL", hopper(3.9e12, 60e12, 417.5e12, 835.5e12, 1670.5e12)},
        {"NVIDIA H200", hopper(4.8e12, 66.9e12, 494.7e12, 989.4e12, 1978.9e12)},
        {"NVIDIA H200 NVL", hopper(4.8e12, 60e12, 417.5e12, 835.5e12, 1670.5e12)},
        {"NVIDIA A100-SXM4-80GB", ampere(2.039e12)},
        {"NVIDIA A100-SXM4-40GB", ampere(1.555e12)},
        {"NVIDIA A100 80GB PCIe", ampere(1.935e12)},
        {"NVIDIA A100-PCIE-40GB", ampere(1.555e12)},
        {"NVIDIA L40S",
         {{"d2d_bandwidth", 864e9},
          {"fp32_fma", 91.6e12},
          {"matmul_tf32", 183e12},
          {"matmul_bf16", 362.05e12},
          {"matmul_fp16", 362.05e12},
          {"matmul_fp8", 733e12},
          {"matmul_int8", 733e12}}},
    };
  }();
  return table;
}

std::optional<double> larger(const PeakFigure& f) {
  if (f.measured && f.datasheet) return std::max(*f.measured, *f.datasheet);
  return f.best();
}

}  // namespace

const std::map<std::string, double>* datasheet_peaks(std::string_view gpu) {
  const auto& table = datasheet_table();
  auto it = table.find(std::string(gpu));
  return it == table.end() ? nullptr : &it->second;
}

Calibration datasheet_calibration(const std::string& gpu) {
  Calibration c;
  c.gpu = gpu;
  if (const auto* figures = datasheet_peaks(gpu))
    for (const auto& [name, value] : *figures) c.peaks[name].datasheet = value;
  return c;
}

std::optional<PeaksForRun> peaks_for_run(const CalibrationCache& cache, const std::string& gpu,
                                         std::string_view compute_peak) {
  const auto from = [&](const Calibration& c, const std::string& source) -> std::optional<PeaksForRun> {
    auto roofline = device_peaks(c, compute_peak);
    if (!roofline) return std::nullopt;
    const auto& bandwidth = c.peaks.at("d2d_bandwidth");
    const auto& rate = c.peaks.at(std::string(compute_peak));
    return PeaksForRun{*roofline, DevicePeaks{*larger(bandwidth), *larger(rate)}, source};
  };
  for (auto it = cache.entries.rbegin(); it != cache.entries.rend(); ++it) {
    if (it->gpu != gpu) continue;
    // A cache entry made before the datasheet knew this GPU (or written by hand) still gets its figures.
    Calibration merged = *it;
    for (auto& [name, figure] : datasheet_calibration(gpu).peaks)
      if (!merged.peaks[name].datasheet) merged.peaks[name].datasheet = figure.datasheet;
    if (auto peaks = from(merged, "calibrated")) return peaks;
  }
  return from(datasheet_calibration(gpu), "datasheet");
}

std::filesystem::path default_calibration_path() {
  if (const char* env = std::getenv("KGATE_CALIBRATION_CACHE"); env && *env) return env;
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::filesystem::path(home) / ".cache/kgate/calibration.json";
  return {};
}

}  // namespace kgate::runtime
