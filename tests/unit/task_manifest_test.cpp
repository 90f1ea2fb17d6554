// Task manifests: loading, errors that name the file and the field, defaults, formulas, and the
// shipped tasks/ suite (every manifest loads; the 15 categories are covered).
#include "analyzers/tasks/task_manifest.h"

#include <set>

#include <gtest/gtest.h>

#include "test_support.h"

namespace kgate::runtime {
namespace {

using kgate::testing::ScratchDir;

const char* kGoodManifest = R"(name: gemm_relu
category: Fusion
description: y = relu(x @ W^T)
dtypes: [fp32, fp16]
shapes:
  public:
    - {M: 64, N: 32, K: 16}
  hidden:
    - {M: 1, N: 33, K: 7}
    - {M: 129, N: 65, K: 31}
inputs:
  - {name: x, fill: random}
flops: "2*M*N*K + M*N"
bytes: "(M*K + N*K + M*N)*elem"
tolerance:
  fp16: {atol: 1.0e-2, rtol: 1.0e-2, norm_rtol: 1.0e-3}
policy:
  category: fusion
  core: [torch.matmul]
)";

// A task directory named after the manifest's task, with a reference.
std::filesystem::path write_task(const ScratchDir& dir, const std::string& manifest,
                                 const std::string& name = "gemm_relu") {
  dir.write("Fusion/" + name + "/reference.py", "M = 64\nN = 32\nK = 16\n");
  return dir.write("Fusion/" + name + "/task.yaml", manifest).parent_path();
}

// The manifest with one line replaced (the line starting with `prefix`).
std::string with_line(const std::string& manifest, const std::string& prefix, const std::string& replacement) {
  std::string text = "\n" + manifest;
  const auto at = text.find("\n" + prefix);
  EXPECT_NE(at, std::string::npos) << prefix;
  const auto end = text.find('\n', at + 1);
  return text.replace(at + 1, end - at - 1, replacement).substr(1);
}

TEST(TaskManifest, LoadsEveryField) {
  ScratchDir dir;
  const auto task_dir = write_task(dir, kGoodManifest);
  for (const auto& path : {task_dir, task_dir / "task.yaml"}) {
    auto task = load_task(path);
    ASSERT_TRUE(task.has_value()) << task.error();
    EXPECT_EQ(task->name, "gemm_relu");
    EXPECT_EQ(task->category, "Fusion");
    EXPECT_EQ(task->reference, task_dir / "reference.py");
    EXPECT_FALSE(task->bare_kernelbench);
    EXPECT_EQ(task->dtypes, (std::vector<DType>{DType::fp32, DType::fp16}));
    ASSERT_EQ(task->public_shapes.size(), 1u);
    EXPECT_EQ(task->public_shapes[0].at("M"), 64);
    ASSERT_EQ(task->hidden_shapes.size(), 2u);
    EXPECT_EQ(task->hidden_shapes[1].at("K"), 31);
    EXPECT_EQ(task->shape_symbols(), (std::vector<std::string>{"K", "M", "N"}));
    ASSERT_EQ(task->inputs.size(), 1u);
    EXPECT_EQ(task->inputs[0].fill, Fill::random);
    EXPECT_EQ(task->flops, "2*M*N*K + M*N");
    EXPECT_EQ(task->policy.category, "fusion");
    EXPECT_EQ(task->policy.core, std::vector<std::string>{"torch.matmul"});
    EXPECT_EQ(task->contract, Contract::elementwise);
  }
}

TEST(TaskManifest, ToleranceDefaultsApplyToMissingDtypes) {
  ScratchDir dir;
  auto task = load_task(write_task(dir, kGoodManifest));
  ASSERT_TRUE(task.has_value()) << task.error();
  EXPECT_DOUBLE_EQ(task->tolerance_for(DType::fp16).norm_rtol, 1e-3);
  EXPECT_DOUBLE_EQ(task->tolerance_for(DType::fp32).atol, 1e-4);
  EXPECT_DOUBLE_EQ(task->tolerance_for(DType::fp32).norm_rtol, 1e-5);
  EXPECT_DOUBLE_EQ(default_tolerance(DType::bf16).rtol, 2e-2);
  EXPECT_DOUBLE_EQ(default_tolerance(DType::int8).atol, 0.0);
}

TEST(TaskManifest, QuantizationContract) {
  ScratchDir dir;
  std::string manifest = kGoodManifest;
  manifest += "contract: quantization\nquantization: {cosine_min: 0.99, rel_l1_max: 0.05, rmse_max: 0.1}\n";
  auto task = load_task(write_task(dir, manifest));
  ASSERT_TRUE(task.has_value()) << task.error();
  EXPECT_EQ(task->contract, Contract::quantization);
  EXPECT_DOUBLE_EQ(task->quantization.cosine_min, 0.99);
  // The contract without its numbers, and the numbers without the contract, are both rejected.
  auto missing = load_task(write_task(dir, std::string(kGoodManifest) + "contract: quantization\n"));
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().find("quantization"), std::string::npos) << missing.error();
  auto stray = load_task(write_task(
      dir, std::string(kGoodManifest) + "quantization: {cosine_min: 0.9, rel_l1_max: 0.1, rmse_max: 0.1}\n"));
  EXPECT_FALSE(stray.has_value());
}

struct BadManifest {
  const char* what;
  std::string manifest;
  const char* field;  // the error must name it
};

TEST(TaskManifest, ErrorsNameTheFileAndTheField) {
  const std::string good = kGoodManifest;
  const std::vector<BadManifest> cases = {
      {"unknown category", with_line(good, "category:", "category: Sorting"), "category"},
      {"no fp32", with_line(good, "dtypes:", "dtypes: [fp16]"), "dtypes"},
      {"unknown dtype", with_line(good, "dtypes:", "dtypes: [fp32, fp64]"), "dtypes"},
      {"unknown key", good + "speed: fast\n", "speed"},
      {"one hidden set", with_line(good, "    - {M: 129", ""), "shapes.hidden"},
      {"zero size", with_line(good, "    - {M: 64", "    - {M: 0, N: 32, K: 16}"), "shapes.public"},
      {"bad fill", with_line(good, "  - {name: x", "  - {name: x, fill: ones}"), "inputs"},
      {"unknown symbol in flops", with_line(good, "flops:", "flops: \"2*M*N*Q\""), "flops"},
      {"syntax error in bytes", with_line(good, "bytes:", "bytes: \"(M*K\""), "bytes"},
      {"name differs from dir", with_line(good, "name:", "name: other_name"), "name"},
      {"symbols differ", with_line(good, "    - {M: 1,", "    - {M: 1, N: 33}"), "shapes.hidden[0]"},
      {"tolerance for a dtype not run",
       with_line(good, "  fp16: {atol", "  bf16: {atol: 1.0e-2, rtol: 1.0e-2, norm_rtol: 1.0e-3}"), "tolerance.bf16"},
      {"no core op", with_line(good, "  core:", "  core: []"), "core"},
      {"policy name with a path", with_line(good, "  category: fusion", "  category: ../fusion"), "category"},
      {"yaml syntax", good + "policy: [unclosed\n", "task.yaml"},
  };
  for (const auto& c : cases) {
    ScratchDir dir;
    const auto task_dir = write_task(dir, c.manifest);
    auto task = load_task(task_dir);
    ASSERT_FALSE(task.has_value()) << c.what;
    EXPECT_NE(task.error().find((task_dir / "task.yaml").string()), std::string::npos)
        << c.what << ": " << task.error();
    EXPECT_NE(task.error().find(c.field), std::string::npos) << c.what << ": " << task.error();
  }
}

TEST(TaskManifest, MissingReferenceOrManifest) {
  ScratchDir dir;
  const auto manifest = dir.write("Fusion/gemm_relu/task.yaml", kGoodManifest);
  auto no_reference = load_task(manifest.parent_path());
  ASSERT_FALSE(no_reference.has_value());
  EXPECT_NE(no_reference.error().find("reference.py"), std::string::npos) << no_reference.error();
  auto empty_dir = load_task(dir.path());
  ASSERT_FALSE(empty_dir.has_value());
  EXPECT_NE(empty_dir.error().find("no task.yaml"), std::string::npos);
  EXPECT_FALSE(load_task(dir.path() / "nope").has_value());
  EXPECT_FALSE(load_task(dir.write("notes.txt", "x")).has_value());
}

TEST(TaskManifest, BareKernelBenchFileIsSpeedupOnly) {
  ScratchDir dir;
  const auto file = dir.write("19_ReLU.py", "import torch\nclass Model: pass\n");
  auto task = load_task(file);
  ASSERT_TRUE(task.has_value()) << task.error();
  EXPECT_TRUE(task->bare_kernelbench);
  EXPECT_EQ(task->name, "19_ReLU");
  EXPECT_EQ(task->reference, file);
  EXPECT_FALSE(task->flops.has_value());
  EXPECT_FALSE(task->bytes.has_value());
  ASSERT_EQ(task->public_shapes.size(), 1u);
  EXPECT_TRUE(task->public_shapes[0].empty());
  EXPECT_TRUE(task->hidden_shapes.empty());
  EXPECT_EQ(task->dtypes, std::vector<DType>{DType::fp32});
  EXPECT_EQ(task->policy.category, "kernelbench");
}

TEST(TaskManifest, FindTaskByNameCategoryOrPath) {
  ScratchDir dir;
  const auto task_dir = write_task(dir, kGoodManifest);
  EXPECT_EQ(*find_task(dir.path(), "gemm_relu"), task_dir);
  EXPECT_EQ(*find_task(dir.path(), "Fusion/gemm_relu"), dir.path() / "Fusion/gemm_relu");
  EXPECT_EQ(*find_task(dir.path(), task_dir.string()), task_dir);
  EXPECT_NE(find_task(dir.path(), "missing").error().find("unknown task"), std::string::npos);
  EXPECT_FALSE(find_task(dir.path(), "../gemm_relu").has_value());
  EXPECT_FALSE(find_task(dir.path(), "").has_value());
  dir.write("Other/gemm_relu/task.yaml", kGoodManifest);
  EXPECT_NE(find_task(dir.path(), "gemm_relu").error().find("ambiguous"), std::string::npos);
}

TEST(TaskFormula, EvaluatesOverShapeSymbolsAndElem) {
  const ShapeSet shape{{"M", 3}, {"N", 5}, {"K", 7}};
  EXPECT_DOUBLE_EQ(*eval_formula("2*M*N*K + 2*M*N", shape, DType::fp32), 240.0);
  EXPECT_DOUBLE_EQ(*eval_formula("(M*K + N*K)*elem", shape, DType::fp32), 224.0);
  EXPECT_DOUBLE_EQ(*eval_formula("(M*K + N*K)*elem", shape, DType::fp16), 112.0);
  EXPECT_DOUBLE_EQ(*eval_formula("M*elem", shape, DType::int8), 3.0);
  EXPECT_DOUBLE_EQ(*eval_formula("floor((N - 1)/2) + 1", shape, DType::fp32), 3.0);
  EXPECT_DOUBLE_EQ(*eval_formula("ceil(K/2)", shape, DType::fp32), 4.0);
  // Large counts stay exact in double: 2 * 4096^3.
  EXPECT_DOUBLE_EQ(*eval_formula("2*N*N*N", ShapeSet{{"N", 4096}}, DType::fp32), 137438953472.0);
}

TEST(TaskFormula, ErrorsNameTheProblem) {
  const ShapeSet shape{{"M", 3}};
  auto unknown = eval_formula("M*Q", shape, DType::fp32);
  ASSERT_FALSE(unknown.has_value());
  EXPECT_NE(unknown.error().find("unknown symbol 'Q'"), std::string::npos) << unknown.error();
  EXPECT_FALSE(eval_formula("(M", shape, DType::fp32).has_value());
  EXPECT_FALSE(eval_formula("", shape, DType::fp32).has_value());
  EXPECT_FALSE(eval_formula("M +* 2", shape, DType::fp32).has_value());
}

TEST(TaskSuite, EveryShippedTaskLoadsAndEveryCategoryHasThree) {
  const auto root = std::filesystem::path(KGATE_SOURCE_DIR) / "tasks";
  const auto dirs = task_dirs_under(root);
  ASSERT_GE(dirs.size(), 60u);
  std::map<std::string, int> per_category;
  std::set<std::string> names;
  for (const auto& dir : dirs) {
    auto task = load_task(dir);
    ASSERT_TRUE(task.has_value()) << task.error();
    EXPECT_EQ(task->category, dir.parent_path().filename().string()) << dir;
    EXPECT_TRUE(names.insert(task->name).second) << "duplicate task name " << task->name;
    EXPECT_TRUE(
        std::filesystem::is_regular_file(root.parent_path() / "rules/policies" / (task->policy.category + ".yaml")))
        << dir << ": policy.category " << task->policy.category;
    ++per_category[task->category];
  }
  for (const auto& category : task_categories()) EXPECT_GE(per_category[category], 3) << category;
  // The 15 tasks the GPU candidates (corpus/honest/tasks) are written for.
  for (const char* named :
       {"Activation/gelu", "Convolution/conv2d_3x3", "Fusion/gemm_bias_relu", "Index/embedding_gather",
        "LinearAlgebra/batched_matvec", "Loss/mse_loss", "Math/polynomial_eval", "MatrixMultiply/matmul_square",
        "Normalization/layernorm", "Optimizer/adam_step", "Pooling/maxpool2d", "Quantization/w8a8_matmul",
        "Random/hash_uniform", "Reduce/sum_dim", "SpatialOps/upsample_bilinear2x"})
    EXPECT_TRUE(std::filesystem::is_regular_file(root / named / "task.yaml")) << named;
}

}  // namespace
}  // namespace kgate::runtime
