// Profiling arithmetic: who launched a kernel (by its name), achieved rates against the device's peaks,
// the roofline position, the physics floor (T16), and fast_p / geometric-mean speedup tables.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/core/status.h"
#include "runtime/verdict.h"

namespace kgate::runtime {

// Where a kernel came from. `candidate`: one of the submission's own kernels (CUDA, Triton, CUTLASS it
// instantiated itself); the others are library kernels a submission may only use where the policy allows.
enum class KernelOrigin { candidate, aten, cublas, cudnn, cutlass, triton_generated, unknown };
std::string_view kernel_origin_name(KernelOrigin);

// The demangled form of an Itanium-mangled name ("_Z..."); other names come back unchanged.
std::string demangle(std::string_view name);
// The kernel's own name without return type, namespaces' template arguments or parameter list:
// "void at::native::foo<float>(int)" -> "at::native::foo"; "add_kernel" -> "add_kernel".
std::string kernel_base_name(std::string_view demangled);

// candidate_names: the submission's kernel names (the CUDA __global__ functions and @triton.jit functions
// it defines). They win over the library patterns, so a candidate's own CUTLASS instantiation counts as its own.
KernelOrigin classify_kernel(std::string_view name, const std::vector<std::string>& candidate_names);

struct DevicePeaks {
  double bytes_per_s = 0.0;  // DRAM bandwidth
  double flops_per_s = 0.0;  // the compute peak of the run's dtype and op class
};

struct RooflinePoint {
  double achieved_flops_per_s = 0.0;
  double achieved_bytes_per_s = 0.0;
  double mfu = 0.0;                   // achieved FLOP/s / peak FLOP/s
  double iou = 0.0;                   // achieved bytes/s / peak bandwidth
  double utilisation = 0.0;           // max(mfu, iou): the fraction of the binding roof reached
  double arithmetic_intensity = 0.0;  // FLOP per byte
  double ridge_point = 0.0;           // peak FLOP/s / peak bytes/s: above it the task is compute-bound
  bool memory_bound = false;
  double floor_seconds = 0.0;  // max(bytes / peak bandwidth, flops / peak rate): no kernel can be faster
};

// An error for a non-positive time or peak, or negative work.
Result<RooflinePoint> roofline(double flops, double bytes, double seconds, const DevicePeaks&);

// physics-floor (T16) when seconds < floor_seconds * margin; margin < 1 leaves room for peaks measured
// below the true hardware peak. No reason without a formula (both flops and bytes zero).
std::optional<Reason> check_physics_floor(double flops, double bytes, double seconds, const DevicePeaks&,
                                          double margin = 0.9);

struct TaskOutcome {
  std::string task;
  std::string category;
  bool correct = false;
  double speedup = 0.0;  // reference time / candidate time
};

struct FastPRow {
  std::string category;  // "all" for the whole suite
  std::size_t tasks = 0;
  std::map<double, double> fast_p;  // p -> share of tasks that are correct and faster than p x reference
  double geomean_speedup = 0.0;     // over the correct tasks; 0 when none is correct
};

// The p values reported: 0 (correctness alone), 1, 1.5 and 2.
const std::vector<double>& fast_p_thresholds();
double fast_p(const std::vector<TaskOutcome>&, double p);
double geomean_speedup(const std::vector<TaskOutcome>&);
// One row per category (sorted by name), then the "all" row.
std::vector<FastPRow> fast_p_table(const std::vector<TaskOutcome>&);

}  // namespace kgate::runtime
