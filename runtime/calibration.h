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

// The published dense (no sparsity) figures of the GPUs kgate knows by their CUDA device name, by
// calibration_peak_names(); d2d_bandwidth is the memory bandwidth. nullptr for a GPU not in the table.
const std::map<std::string, double>* datasheet_peaks(std::string_view gpu);
// An entry for `gpu` holding only its datasheet figures (empty peaks for an unknown GPU).
Calibration datasheet_calibration(const std::string& gpu);

// What a run on one GPU uses: the roofline's peaks (measured where kgate calibrate measured them, else
// the datasheet's), the physics floor's (the larger of the two, so that a GPU measured below its
// datasheet cannot make an honest kernel "impossibly fast"), and where they came from.
struct PeaksForRun {
  DevicePeaks roofline;
  DevicePeaks floor;
  std::string source;  // "calibrated" or "datasheet"
};
// The last cache entry for `gpu` that has both figures, else the datasheet; nullopt when neither knows it.
std::optional<PeaksForRun> peaks_for_run(const CalibrationCache&, const std::string& gpu,
                                         std::string_view compute_peak);
// $KGATE_CALIBRATION_CACHE, else ~/.cache/kgate/calibration.json; empty when neither can be formed.
std::filesystem::path default_calibration_path();

// Parsing validates against the cache's JSON Schema, then rejects duplicate keys; errors name the source.
Result<CalibrationCache> parse_calibration_cache(const std::string& text, const std::string& source);
// A missing file is an empty cache (nothing calibrated yet); an unreadable or invalid one is an error.
Result<CalibrationCache> read_calibration_cache(const std::filesystem::path&);
std::string calibration_cache_json(const CalibrationCache&);
// Writes through a temporary file and a rename, so a reader never sees half a cache.
Status write_calibration_cache(const std::filesystem::path&, const CalibrationCache&);

}  // namespace kgate::runtime
