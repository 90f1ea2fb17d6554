// Runtime task manifests (docs/task-manifest.md): the Task struct, its YAML loader validated by
// tasks/task.schema.json, and the FLOP/byte formulas. Torch-free, so the static gate (`kgate check
// --task`) and the runtime (judge, profiling, `kgate tasks lint`) read one loader. The names live in
// kgate::runtime, the namespace of their consumers; runtime/task.h includes this header.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/core/status.h"

namespace kgate::runtime {

enum class DType { fp32, fp16, bf16, int8 };
std::string_view dtype_name(DType);
std::optional<DType> parse_dtype(std::string_view);  // "fp32", "fp16", "bf16", "int8"
int dtype_bytes(DType);

// What values an input may take (docs/task-manifest.md, `inputs[].fill`).
enum class Fill { random, positive, nonnegative, unit_interval, probability, keep };
std::string_view fill_name(Fill);
std::optional<Fill> parse_fill(std::string_view);

// Where an input's entries are tied together: a zero pattern or a symmetry over the last two
// dimensions, or an order over the last one (`sorted`: non-decreasing, the inputs of a merge or a
// binary search), that every draw keeps.
enum class Pattern { lower_triangular, upper_triangular, diagonal, symmetric, sorted };
std::string_view pattern_name(Pattern);
std::optional<Pattern> parse_pattern(std::string_view);

// One input's contract. A manifest states it (`fill: kind` or `fill: [kind, pattern]`); for a task
// without one the judge infers it from get_inputs() draws (runtime/input_contract.h), and `inferred`
// then says what the draws showed.
struct InputSpec {
  std::string name;
  std::optional<Fill> fill;  // unset: random for floating tensors, keep otherwise
  std::optional<Pattern> pattern;
  std::string inferred;
  // The magnitude of the task's own values (a power of two near their RMS, where below 1; unset: 1), inferred for a
  // task without a manifest: the judge's random draws are scaled by it, so that a task whose inputs lie
  // in [-0.1, 0.1] is not judged on values ten times larger than its tolerance was set for.
  std::optional<double> scale;
};

struct Tolerance {
  double atol = 1e-4;
  double rtol = 1e-4;
  double norm_rtol = 1e-5;
};
Tolerance default_tolerance(DType);

struct QuantizationContract {
  double cosine_min = 0.999;
  double rel_l1_max = 0.02;
  double rmse_max = 0.05;
};

enum class Contract { elementwise, quantization };

// One assignment of the reference's module-level shape symbols, e.g. {M: 1024, N: 1024, K: 1024}.
using ShapeSet = std::map<std::string, std::int64_t>;

struct TaskPolicy {
  std::string category;            // rules/policies/<category>.yaml
  std::vector<std::string> allow;  // torch ops a submission may keep
  std::vector<std::string> core;   // ops that must be the submission's own
  // Runtime (CUPTI) policy of a GPU run, for every task, bare KernelBench files included: the least
  // share of kernel time the submission's own kernels must take (F5; unset: kDefaultMinOwnKernelShare),
  // and whether vendor library kernels (cuBLAS, cuBLASLt, cuDNN, CUTLASS) may run at all (F6; they may
  // only where the manifest says `library_kernels: allow`).
  std::optional<double> min_own_kernel_share;
  bool forbid_library_kernels = true;
};

// The own-kernel share a task gets when its manifest names none (or it has no manifest): small glue
// such as a final sum of partials stays legal, a forward whose real work is PyTorch's does not.
inline constexpr double kDefaultMinOwnKernelShare = 0.9;

// The 15 KernelBench-X categories, in the order the docs list them.
const std::vector<std::string>& task_categories();

struct Task {
  std::string name;
  std::string category;
  std::string description;
  std::filesystem::path dir;        // the task directory (empty for a bare KernelBench file)
  std::filesystem::path reference;  // reference.py (or the bare KernelBench file)
  std::filesystem::path manifest;   // task.yaml (empty for a bare KernelBench file)
  bool bare_kernelbench = false;    // --task was a .py file: no manifest, speedup only
  std::vector<DType> dtypes{DType::fp32};
  std::vector<ShapeSet> public_shapes;  // a bare file has one empty set: the file's own globals
  std::vector<ShapeSet> hidden_shapes;
  std::vector<InputSpec> inputs;
  std::optional<std::string> flops;  // expressions over shape symbols and `elem`
  std::optional<std::string> bytes;
  std::map<DType, Tolerance> tolerance;  // missing dtypes use default_tolerance
  Contract contract = Contract::elementwise;
  QuantizationContract quantization;
  std::vector<std::string> special_values;  // "inf", "-inf", "nan" (±0 always allowed)
  TaskPolicy policy;

  Tolerance tolerance_for(DType d) const;
  // Every shape symbol the task uses (the keys of its shape sets), sorted.
  std::vector<std::string> shape_symbols() const;
};

// The policy a bare KernelBench file gets: rules/policies/kernelbench.yaml.
inline constexpr std::string_view kBareTaskPolicy = "kernelbench";

// Loads a task directory (task.yaml + reference.py), a task.yaml path, or a bare KernelBench .py file.
// Validates the manifest against tasks/task.schema.json (compiled in) and its formulas against its
// shape sets; every error names the file and the field.
Result<Task> load_task(const std::filesystem::path& path);

// Resolves what `--task` was given: an existing path (task dir, task.yaml, bare .py) as it is, else a
// task name (`gemm_bias_relu`) or `Category/name`, searched under tasks_dir.
Result<std::filesystem::path> find_task(const std::filesystem::path& tasks_dir, std::string_view spec);

// Every task directory (one holding task.yaml) under `root`, sorted.
std::vector<std::filesystem::path> task_dirs_under(const std::filesystem::path& root);

// Evaluates a FLOP or byte formula for one shape set; `elem` is bound to dtype_bytes(dtype).
// muparser syntax plus floor() and ceil(); an unknown symbol is an error naming it.
Result<double> eval_formula(const std::string& expr, const ShapeSet& shape, DType dtype);

}  // namespace kgate::runtime
