// The calibration cache: measured peaks of one GPU (bandwidth, FP32 FMA, matmul rates per dtype) with the
// datasheet figures beside them, keyed by GPU name + driver + clocks, stored as validated JSON.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/core/status.h"
#include "runtime/profile.h"

namespace kgate::runtime {

// d2d_bandwidth (bytes/s), fp32_fma (FLOP/s), matmul_tf32, matmul_bf16, matmul_fp16, matmul_fp8,
// matmul_int8 (FLOP/s or OP/s).
const std::vector<std::string>& calibration_peak_names();

struct PeakFigure {
  std::optional<double> measured;
  std::optional<double> datasheet;
  // The figure a roofline uses: the measured one where there is one, else the datasheet's.
  std::optional<double> best() const { return measured ? measured : datasheet; }
};

struct Calibration {
  std::string gpu;     // e.g. "NVIDIA H100 80GB HBM3"
  std::string driver;  // e.g. "580.65.06"
  int sm_clock_mhz = 0;
  int mem_clock_mhz = 0;
  std::map<std::string, PeakFigure> peaks;  // by calibration_peak_names()
  std::string key() const;                  // "gpu|driver|sm_clock|mem_clock"
};

struct CalibrationCache {
  std::vector<Calibration> entries;
  const Calibration* find(std::string_view key) const;
  void upsert(Calibration);  // replaces the entry with the same key
};

// The peaks a roofline of one kernel uses: d2d_bandwidth and the named compute peak (e.g. "matmul_bf16").
Result<DevicePeaks> device_peaks(const Calibration&, std::string_view compute_peak);

// Parsing validates against the cache's JSON Schema, then rejects duplicate keys; errors name the source.
Result<CalibrationCache> parse_calibration_cache(const std::string& text, const std::string& source);
// A missing file is an empty cache (nothing calibrated yet); an unreadable or invalid one is an error.
Result<CalibrationCache> read_calibration_cache(const std::filesystem::path&);
std::string calibration_cache_json(const CalibrationCache&);
// Writes through a temporary file and a rename, so a reader never sees half a cache.
Status write_calibration_cache(const std::filesystem::path&, const CalibrationCache&);

}  // namespace kgate::runtime
