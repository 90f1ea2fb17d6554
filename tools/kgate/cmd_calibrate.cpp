// `kgate calibrate`: measures the GPU's peaks once (runtime/python/kgate_calibrate.py, through torch:
// a copy, an FMA kernel, cuBLAS and cuBLASLt GEMMs), keeps them in the calibration cache under the GPU's
// name, driver and clocks, and prints them beside the datasheet's. `--show` prints the cache only.
#include "tools/kgate/cmd_calibrate.h"

#include <cstdio>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>
#include <pybind11/embed.h>

#include "runtime/calibration.h"
#include "runtime/embed.h"
#include "tools/kgate/runtime_commands.h"

namespace py = pybind11;
using nlohmann::json;

namespace kgate::cli {
namespace {

struct CalibrateOptions {
  int device_index = 0;
  std::string cache;
  int repeats = 20;
  bool force = false;
  bool show = false;
  std::string format = "text";
};

std::string human(const std::string& peak, double value) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(1);
  if (peak == "d2d_bandwidth")
    out << value / 1e9 << " GB/s";
  else if (peak == "matmul_int8")
    out << value / 1e12 << " TOP/s";
  else
    out << value / 1e12 << " TFLOP/s";
  return out.str();
}

json to_json(const py::handle& object) {
  return json::parse(py::module_::import("json").attr("dumps")(object).cast<std::string>());
}

void print_entry(const runtime::Calibration& c, const json& skipped, std::ostream& out) {
  out << "GPU " << c.gpu << ", driver " << c.driver << ", clocks SM " << c.sm_clock_mhz << " MHz / memory "
      << c.mem_clock_mhz << " MHz\n";
  out << std::left << std::setw(16) << "peak" << std::setw(18) << "measured" << std::setw(18) << "datasheet"
      << "measured/datasheet\n";
  for (const auto& name : runtime::calibration_peak_names()) {
    auto it = c.peaks.find(name);
    const runtime::PeakFigure figure = it == c.peaks.end() ? runtime::PeakFigure{} : it->second;
    std::string measured = figure.measured ? human(name, *figure.measured) : "-";
    if (!figure.measured && skipped.contains(name)) measured = "skipped";
    std::string ratio = "-";
    if (figure.measured && figure.datasheet) {
      std::ostringstream r;
      r << std::fixed << std::setprecision(1) << 100.0 * *figure.measured / *figure.datasheet << "%";
      ratio = r.str();
    }
    out << std::setw(16) << name << std::setw(18) << measured << std::setw(18)
        << (figure.datasheet ? human(name, *figure.datasheet) : "-") << ratio << "\n";
  }
  for (const auto& [name, why] : skipped.items()) out << "  " << name << " skipped: " << why.get<std::string>() << "\n";
}

int show(const CalibrateOptions& o, const std::filesystem::path& path) {
  auto cache = runtime::read_calibration_cache(path);
  if (!cache) {
    std::cerr << "kgate: error: " << cache.error() << "\n";
    return 2;
  }
  if (o.format == "json") {
    std::cout << runtime::calibration_cache_json(*cache);
    return 0;
  }
  if (cache->entries.empty()) std::cout << path.string() << ": no GPU calibrated yet (run kgate calibrate on one)\n";
  for (const auto& entry : cache->entries) print_entry(entry, json::object(), std::cout);
  return 0;
}

int calibrate(const CalibrateOptions& o) {
  const std::filesystem::path path =
      o.cache.empty() ? runtime::default_calibration_path() : std::filesystem::path(o.cache);
  if (path.empty()) {
    std::cerr << "kgate: error: no calibration cache path: give --cache, KGATE_CALIBRATION_CACHE or HOME\n";
    return 2;
  }
  if (o.show) return show(o, path);
  auto cache = runtime::read_calibration_cache(path);
  if (!cache) {
    std::cerr << "kgate: error: " << cache.error() << " (remove it or give another --cache)\n";
    return 2;
  }
  if (auto started = runtime::embed::start_python(); !started) {
    std::cerr << "kgate: error: " << started.message() << "\n";
    return 2;
  }
  runtime::Calibration entry;
  json skipped = json::object();
  bool measured_now = false;
  try {
    py::module_ helper = runtime::embed::helper("kgate_calibrate");
    const json identity = to_json(helper.attr("identify")(o.device_index));
    entry = runtime::datasheet_calibration(identity.at("gpu").get<std::string>());
    entry.driver = identity.at("driver").get<std::string>();
    entry.sm_clock_mhz = identity.at("sm_clock_mhz").get<int>();
    entry.mem_clock_mhz = identity.at("mem_clock_mhz").get<int>();
    const runtime::Calibration* cached = cache->find(entry.key());
    if (cached && !o.force) {
      entry = *cached;
    } else {
      std::cerr << "kgate: measuring " << entry.gpu << " (device " << o.device_index << ", " << o.repeats
                << " timed runs per peak; about a minute)\n";
      const json result = to_json(helper.attr("measure")(o.device_index, o.repeats));
      for (const auto& [name, value] : result.at("measured").items()) entry.peaks[name].measured = value.get<double>();
      skipped = result.at("skipped");
      measured_now = true;
    }
  } catch (const py::error_already_set& e) {
    std::cerr << "kgate: error: calibration failed: " << runtime::embed::error_text(e) << "\n";
    return 2;
  } catch (const json::exception& e) {
    std::cerr << "kgate: error: calibration returned malformed data: " << e.what() << "\n";
    return 2;
  }
  if (measured_now) {
    if (!entry.peaks.count("d2d_bandwidth") || !entry.peaks["d2d_bandwidth"].measured ||
        !entry.peaks.count("fp32_fma") || !entry.peaks["fp32_fma"].measured) {
      std::cerr << "kgate: error: the bandwidth and FP32 FMA measurements are required: " << skipped.dump() << "\n";
      return 2;
    }
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    cache->upsert(entry);
    if (auto written = runtime::write_calibration_cache(path, *cache); !written) {
      std::cerr << "kgate: error: " << written.message() << "\n";
      return 2;
    }
  }
  if (o.format == "json") {
    runtime::CalibrationCache one;
    one.entries.push_back(entry);
    json out = json::parse(runtime::calibration_cache_json(one)).at("entries").at(0);
    out["cache"] = path.string();
    out["measured_now"] = measured_now;
    out["skipped"] = skipped;
    std::cout << out.dump(2) << "\n";
  } else {
    print_entry(entry, skipped, std::cout);
    std::cout << (measured_now ? "written to " : "from the cache ") << path.string()
              << (measured_now ? "" : " (--force measures again)") << "\n";
  }
  return 0;
}

}  // namespace

RegisteredCommand add_calibrate_command(CLI::App& parent) {
  auto options = std::make_shared<CalibrateOptions>();
  CLI::App* cmd = parent.add_subcommand(
      "calibrate", runtime_command_summary("calibrate") + " (the roofline's and the physics floor's peaks)");
  cmd->add_option("--device-index", options->device_index, "CUDA device to measure")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--cache", options->cache,
                  "the calibration cache (default: $KGATE_CALIBRATION_CACHE or ~/.cache/kgate/calibration.json)");
  cmd->add_option("--repeats", options->repeats, "timed runs per peak (the median counts)")
      ->check(CLI::Range(3, 1000))
      ->capture_default_str();
  cmd->add_flag("--force", options->force, "measure again even if the cache has this GPU, driver and clocks");
  cmd->add_flag("--show", options->show, "print the cache and measure nothing (works without a GPU)");
  cmd->add_option("--format", options->format, "output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  return {cmd, [options] { return calibrate(*options); }};
}

}  // namespace kgate::cli
