// Precision that only types name (WMMA fragments, CuTe MMA atoms) and the origin a reassignment leaves:
// both C++ engines read them alike.
#include <gtest/gtest.h>

#include "analyzers/cuda/cuda_common.h"
#include "tests/unit/cuda/cuda_test_support.h"

namespace kgate::cuda {
namespace {

using testing::extract_raw;
using testing::line_of;

TEST(CudaPrecision, MmaAtomNamesTheirTypes) {
  auto atom = [](const char* name) {
    std::vector<std::string> out;
    for (const auto& p : mma_atom_precision(name)) out.push_back(p.via + " " + p.dtype);
    return out;
  };
  EXPECT_EQ(atom("SM80_16x8x16_F16F16F16F16_TN"),
            (std::vector<std::string>{"mma-atom-accumulator torch.float16", "mma-atom-operand torch.float16"}));
  EXPECT_EQ(atom("SM80_16x8x16_F32BF16BF16F32_TN"), std::vector<std::string>{"mma-atom-operand torch.bfloat16"});
  EXPECT_EQ(atom("SM80_16x8x8_F32TF32TF32F32_TN"), std::vector<std::string>{"mma-atom-operand tf32"});
  EXPECT_EQ(atom("SM90_64x128x16_F32E4M3E5M2_SS"),
            (std::vector<std::string>{"mma-atom-operand torch.float8_e4m3fn", "mma-atom-operand torch.float8_e5m2"}));
  // fp32 and fp64 throughout, integers (quantisation's), and names that are not atoms: nothing.
  EXPECT_TRUE(atom("SM80_8x8x4_F64F64F64F64_TN").empty());
  EXPECT_TRUE(atom("SM75_16x8x8_F32F32F32F32_TN").empty());
  EXPECT_TRUE(atom("SM80_16x8x32_S32S8S8S32_TN").empty());
  EXPECT_TRUE(atom("SM80_CP_ASYNC_CACHEALWAYS").empty());
  EXPECT_TRUE(atom("SM90_64x64x16_F16F16_SS").empty());
  EXPECT_TRUE(atom("SMEM_16x8x16_F16F16F16").empty());
}

TEST(CudaPrecision, WmmaFragmentNamesItsType) {
  auto frag = [](const char* use, const char* element) {
    auto p = wmma_fragment_precision(use, element);
    return p ? p->via + " " + p->dtype : std::string("none");
  };
  EXPECT_EQ(frag("nvcuda::wmma::accumulator", "__half"), "wmma-accumulator torch.float16");
  EXPECT_EQ(frag("wmma::matrix_a", "nvcuda::wmma::precision::tf32"), "wmma-operand tf32");
  EXPECT_EQ(frag("matrix_b", "__nv_bfloat16"), "wmma-operand torch.bfloat16");
  EXPECT_EQ(frag("accumulator", "float"), "none");
  EXPECT_EQ(frag("row_major", "__half"), "none");
}

const char* kTensorCoreFile = R"(#include <torch/extension.h>
#include <mma.h>
#include <cute/tensor.hpp>
using namespace nvcuda;
// A comment that names SM80_16x8x16_F16F16F16F16_TN is no code.
using Atom = cute::MMA_Atom<cute::SM80_16x8x16_F32BF16BF16F32_TN>;
__global__ void tile(const float* a, float* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc2;
  wmma::fill_fragment(acc, 0.f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}
__global__ void half_tile(const __half* a, __half* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::accumulator, 16, 16, 16, __half> acc;
  wmma::fill_fragment(acc, 0.f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}
torch::Tensor replaced(torch::Tensor x) {
  auto out = torch::empty_like(x);
  out = at::relu(x);
  return out;
}
torch::Tensor sometimes(torch::Tensor x, bool flag) {
  auto out = torch::empty_like(x);
  if (flag) out = at::relu(x);
  return out;
}
)";

// "<function> <via> <dtype> line <n>" for each conversion (set-up ones too when asked), sorted.
std::vector<std::string> cast_lines(const FactSet& f, bool with_function, bool with_setup) {
  std::vector<std::string> casts;
  for (const auto& c : f.casts) {
    if (c.setup && !with_setup) continue;
    const std::string fn = c.function < 0 ? "<module>" : f.functions[c.function].qualname;
    casts.push_back((with_function ? fn + " " : "") + c.via + " " + c.to_dtype + " line " +
                    std::to_string(c.span.line));
  }
  std::sort(casts.begin(), casts.end());
  return casts;
}

void expect_tensor_core_facts(const FactSet& f, const std::string& engine) {
  const std::vector<std::string> casts = cast_lines(f, true, true);
  const auto line = [](const char* needle) { return std::to_string(line_of(kTensorCoreFile, needle)); };
  std::vector<std::string> want = {
      "<module> mma-atom-operand torch.bfloat16 line " + line("using Atom"),
      "half_tile wmma-accumulator torch.float16 line " + line("16, __half> acc"),
      "half_tile wmma-operand torch.float16 line " + line("16, __half, wmma::row_major"),
      "tile wmma-operand tf32 line " + line("precision::tf32"),
  };
  std::sort(want.begin(), want.end());
  EXPECT_EQ(casts, want) << engine;
  // `out = at::relu(x)` on every path replaces the allocation's origin; under `if` it adds to it.
  ASSERT_EQ(f.returns.size(), 2u) << engine;
  EXPECT_EQ(f.returns[0].origins, std::vector<std::string>{"at::relu"}) << engine;
  EXPECT_EQ(f.returns[1].origins, (std::vector<std::string>{"at::empty_like", "at::relu"})) << engine;
}

TEST(CudaPrecision, TreeSitterReadsTensorCoreTypesAsClangDoes) {
  testing::expect_from_both_engines(kTensorCoreFile, expect_tensor_core_facts);
}

// Conversions that a narrower type makes by itself: a functional cast through an alias chain,
// static_cast, a C cast and a declaration. A value already of that type converts nothing.
constexpr const char* kTypeConversionFile = R"(#include <torch/extension.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using Element = __half;
using ElementInput = Element;
typedef __nv_bfloat16 Narrow;
__global__ void convert(const float* x, __half* h, __nv_bfloat16* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  __half a = ElementInput(v);
  __half c = static_cast<__half>(v);
  Narrow d = (Narrow)v;
  __half e = v;
  __half f = a;
  h[i] = f;
  h[n + i] = c;
  h[2 * n + i] = e;
  b[i] = d;
}
)";

void expect_type_conversion_facts(const FactSet& f, const std::string& engine) {
  const std::vector<std::string> casts = cast_lines(f, false, false);
  const auto line = [](const char* needle) { return std::to_string(line_of(kTypeConversionFile, needle)); };
  std::vector<std::string> want = {
      "type torch.float16 line " + line("__half a ="),
      "type torch.float16 line " + line("__half c ="),
      "type torch.bfloat16 line " + line("Narrow d ="),
      "type torch.float16 line " + line("__half e ="),
  };
  std::sort(want.begin(), want.end());
  EXPECT_EQ(casts, want) << engine;
}

TEST(CudaPrecision, TreeSitterReadsTypeConversionsAsClangDoes) {
  testing::expect_from_both_engines(kTypeConversionFile, expect_type_conversion_facts);
}

}  // namespace
}  // namespace kgate::cuda
