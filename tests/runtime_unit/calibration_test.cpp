// The calibration cache: round trip, schema errors that name the field, keys, missing files.
#include <gtest/gtest.h>

#include <fstream>

#include "runtime/calibration.h"

namespace kgate::runtime {
namespace {

Calibration h100() {
  Calibration c;
  c.gpu = "NVIDIA H100 80GB HBM3";
  c.driver = "580.65.06";
  c.sm_clock_mhz = 1980;
  c.mem_clock_mhz = 2619;
  c.peaks["d2d_bandwidth"] = {2.9e12, 3.35e12};
  c.peaks["fp32_fma"] = {5.1e13, 6.7e13};
  c.peaks["matmul_bf16"] = {std::nullopt, 9.89e14};
  return c;
}

std::filesystem::path temp_path(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("kgate_calibration_" + std::to_string(::getpid()) + "_" + name);
}

TEST(Calibration, RoundTripThroughAFile) {
  CalibrationCache cache;
  cache.upsert(h100());
  const auto path = temp_path("roundtrip.json");
  ASSERT_TRUE(write_calibration_cache(path, cache).is_ok());
  auto back = read_calibration_cache(path);
  std::filesystem::remove(path);
  ASSERT_TRUE(back) << back.error();
  ASSERT_EQ(back->entries.size(), 1u);
  const auto* entry = back->find(h100().key());
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->peaks.at("d2d_bandwidth").measured, 2.9e12);
  EXPECT_EQ(entry->peaks.at("matmul_bf16").best(), 9.89e14);  // datasheet when nothing was measured
  EXPECT_FALSE(entry->peaks.at("matmul_bf16").measured.has_value());
}

TEST(Calibration, KeyedByGpuDriverAndClocks) {
  CalibrationCache cache;
  cache.upsert(h100());
  auto other_clock = h100();
  other_clock.sm_clock_mhz = 1755;
  cache.upsert(other_clock);
  EXPECT_EQ(cache.entries.size(), 2u);
  auto remeasured = h100();
  remeasured.peaks["d2d_bandwidth"].measured = 3.0e12;
  cache.upsert(remeasured);
  EXPECT_EQ(cache.entries.size(), 2u);
  EXPECT_EQ(cache.find(h100().key())->peaks.at("d2d_bandwidth").measured, 3.0e12);
  EXPECT_EQ(cache.find("NVIDIA H100 80GB HBM3|580.65.06|1980|1"), nullptr);
}

TEST(Calibration, DevicePeaksPreferMeasured) {
  auto peaks = device_peaks(h100(), "fp32_fma");
  ASSERT_TRUE(peaks) << peaks.error();
  EXPECT_EQ(peaks->bytes_per_s, 2.9e12);
  EXPECT_EQ(peaks->flops_per_s, 5.1e13);
  auto missing = device_peaks(h100(), "matmul_fp8");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().find("matmul_fp8"), std::string::npos);
}

TEST(Calibration, InvalidCachesAreErrorsThatNameTheProblem) {
  EXPECT_FALSE(parse_calibration_cache("{not json", "c.json"));
  auto wrong_version = parse_calibration_cache(R"({"version": 2, "entries": []})", "c.json");
  ASSERT_FALSE(wrong_version);
  EXPECT_NE(wrong_version.error().find("c.json"), std::string::npos);
  const std::string entry_head =
      R"({"version": 1, "entries": [{"gpu": "G", "driver": "1", "sm_clock_mhz": 1, "mem_clock_mhz": 1, "peaks": )";
  auto negative = parse_calibration_cache(
      entry_head + R"({"d2d_bandwidth": {"measured": -1}, "fp32_fma": {"measured": 1}}}]})", "c.json");
  ASSERT_FALSE(negative);
  EXPECT_NE(negative.error().find("d2d_bandwidth"), std::string::npos) << negative.error();
  auto unknown_peak = parse_calibration_cache(
      entry_head +
          R"({"d2d_bandwidth": {"measured": 1}, "fp32_fma": {"measured": 1}, "matmul_fp4": {"measured": 1}}}]})",
      "c.json");
  EXPECT_FALSE(unknown_peak);
  auto no_bandwidth = parse_calibration_cache(entry_head + R"({"fp32_fma": {"measured": 1}}}]})", "c.json");
  EXPECT_FALSE(no_bandwidth);
  auto ok = parse_calibration_cache(
      entry_head + R"({"d2d_bandwidth": {"measured": 1}, "fp32_fma": {"datasheet": 1}}}]})", "c.json");
  EXPECT_TRUE(ok) << ok.error();
  CalibrationCache duplicate;
  duplicate.entries = {h100(), h100()};
  EXPECT_FALSE(parse_calibration_cache(calibration_cache_json(duplicate), "c.json"));
}

TEST(Calibration, MissingFileIsEmptyUnwritableIsError) {
  auto missing = read_calibration_cache(temp_path("does_not_exist.json"));
  ASSERT_TRUE(missing);
  EXPECT_TRUE(missing->entries.empty());
  CalibrationCache cache;
  cache.upsert(h100());
  EXPECT_FALSE(write_calibration_cache("/nonexistent-dir/cache.json", cache).is_ok());
  auto bad = h100();
  bad.peaks["fp32_fma"].measured = 0.0;
  CalibrationCache invalid;
  invalid.upsert(bad);
  EXPECT_FALSE(write_calibration_cache(temp_path("invalid.json"), invalid).is_ok());
}

TEST(Calibration, DatasheetKnowsTheCommonDataCentreGpus) {
  const auto* h100 = datasheet_peaks("NVIDIA H100 80GB HBM3");
  ASSERT_NE(h100, nullptr);
  EXPECT_DOUBLE_EQ(h100->at("d2d_bandwidth"), 3.35e12);
  EXPECT_DOUBLE_EQ(h100->at("matmul_bf16"), 989.4e12);  // dense, not the sparse 1979
  for (const auto& name : calibration_peak_names()) EXPECT_TRUE(h100->count(name)) << name;
  const auto* a100 = datasheet_peaks("NVIDIA A100-SXM4-80GB");
  ASSERT_NE(a100, nullptr);
  EXPECT_FALSE(a100->count("matmul_fp8"));  // Ampere has no FP8 tensor cores
  EXPECT_EQ(datasheet_peaks("NVIDIA GeForce GTX 1080"), nullptr);
  EXPECT_TRUE(datasheet_calibration("NVIDIA GeForce GTX 1080").peaks.empty());
}

TEST(Calibration, RunsUseMeasuredPeaksAndTheFloorTheLargerFigure) {
  CalibrationCache cache;
  cache.upsert(h100());
  auto bf16 = peaks_for_run(cache, "NVIDIA H100 80GB HBM3", "matmul_bf16");
  ASSERT_TRUE(bf16);
  EXPECT_EQ(bf16->source, "calibrated");
  EXPECT_DOUBLE_EQ(bf16->roofline.bytes_per_s, 2.9e12);   // measured
  EXPECT_DOUBLE_EQ(bf16->roofline.flops_per_s, 9.89e14);  // only the datasheet's in this entry
  EXPECT_DOUBLE_EQ(bf16->floor.bytes_per_s, 3.35e12);     // the larger figure
  // A peak the entry lacks comes from the datasheet table.
  auto int8 = peaks_for_run(cache, "NVIDIA H100 80GB HBM3", "matmul_int8");
  ASSERT_TRUE(int8);
  EXPECT_DOUBLE_EQ(int8->roofline.flops_per_s, 1978.9e12);
  // No cache entry: the datasheet alone; an unknown GPU: nothing.
  auto h200 = peaks_for_run(cache, "NVIDIA H200", "fp32_fma");
  ASSERT_TRUE(h200);
  EXPECT_EQ(h200->source, "datasheet");
  EXPECT_DOUBLE_EQ(h200->roofline.bytes_per_s, 4.8e12);
  EXPECT_FALSE(peaks_for_run(cache, "NVIDIA GeForce GTX 1080", "fp32_fma"));
  // The last entry for the GPU wins (a re-calibration after a driver update is appended).
  Calibration newer = h100();
  newer.driver = "590.1";
  newer.peaks["d2d_bandwidth"].measured = 3.0e12;
  cache.upsert(newer);
  EXPECT_DOUBLE_EQ(peaks_for_run(cache, "NVIDIA H100 80GB HBM3", "fp32_fma")->roofline.bytes_per_s, 3.0e12);
}

}  // namespace
}  // namespace kgate::runtime
