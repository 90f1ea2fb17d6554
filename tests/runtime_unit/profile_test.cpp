// Profiling arithmetic: kernel origins by name, roofline, physics floor, fast_p tables.
#include <gtest/gtest.h>

#include <cmath>

#include "runtime/profile.h"

namespace kgate::runtime {
namespace {

KernelOrigin origin(std::string_view name, const std::vector<std::string>& own = {}) {
  return classify_kernel(name, own);
}

TEST(KernelOrigin, LibraryFamilies) {
  EXPECT_EQ(origin("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
                   "std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>)"),
            KernelOrigin::aten);
  // The same kernel as CUPTI reports it, mangled.
  EXPECT_EQ(origin("_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEESt5arrayIPcLm1EEEEviT0_T1_"),
            KernelOrigin::aten);
  EXPECT_EQ(origin("sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_"
                   "kernel__5x_cublas"),
            KernelOrigin::cublas);
  EXPECT_EQ(origin("ampere_sgemm_128x64_tn"), KernelOrigin::cublas);
  EXPECT_EQ(origin("nvjet_tst_128x256_64x4_1x2_h_bz_coopA_NNT"), KernelOrigin::cublas);
  EXPECT_EQ(origin("void gemv2T_kernel_val<int, int, float, float, float, float, 128, 16, 4, 4, false, false>(float)"),
            KernelOrigin::cublas);
  EXPECT_EQ(origin("cublasLt::splitKreduce_kernel<32, 16, int, float, float>"), KernelOrigin::cublas);
  EXPECT_EQ(origin("sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16"),
            KernelOrigin::cudnn);
  EXPECT_EQ(origin("void cudnn::engines_precompiled::nchwToNhwcKernel<float, float, float, false, true>(int)"),
            KernelOrigin::cudnn);
  EXPECT_EQ(origin("void implicit_convolve_sgemm<float, float, 1024, 5, 5, 3, 3, 3, 1, false, false, true>(int)"),
            KernelOrigin::cudnn);
  EXPECT_EQ(origin("void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_128x128_16x5_nn_align4>(Params)"),
            KernelOrigin::cutlass);
  EXPECT_EQ(origin("cutlass_80_wmma_tensorop_h161616gemm_32x32_128x2_tn_align8"), KernelOrigin::cutlass);
  EXPECT_EQ(origin("triton_poi_fused_add_relu_0"), KernelOrigin::triton_generated);
  EXPECT_EQ(origin("my_mystery_kernel"), KernelOrigin::unknown);
}

TEST(KernelOrigin, CandidateNamesWin) {
  const std::vector<std::string> own{"fused_gemm_relu", "add_kernel", "cutlass_80_tensorop_mine"};
  EXPECT_EQ(origin("fused_gemm_relu", own), KernelOrigin::candidate);
  EXPECT_EQ(origin("_Z15fused_gemm_reluPKfS0_Pfiii", own), KernelOrigin::candidate);
  EXPECT_EQ(origin("void fused_gemm_relu<float, 128>(float const*, float*, int)", own), KernelOrigin::candidate);
  EXPECT_EQ(origin("add_kernel", own), KernelOrigin::candidate);  // a Triton kernel keeps its Python name
  EXPECT_EQ(origin("cutlass_80_tensorop_mine", own), KernelOrigin::candidate);
  EXPECT_EQ(origin("void at::native::add_kernel<float>(float*)", own), KernelOrigin::candidate);
  EXPECT_EQ(origin("fused_gemm_relu_v2", own), KernelOrigin::unknown);
}

TEST(KernelOrigin, NamesHelpers) {
  EXPECT_EQ(demangle("_Z3addPfS_i"), "add(float*, float*, int)");
  EXPECT_EQ(demangle("_Znot_really_mangled"), "_Znot_really_mangled");
  EXPECT_EQ(demangle("plain"), "plain");
  EXPECT_EQ(kernel_base_name("void at::native::foo<float, (anonymous namespace)::Op>(int, float)"), "at::native::foo");
  EXPECT_EQ(kernel_base_name("add(float*, float*, int)"), "add");
  EXPECT_EQ(kernel_origin_name(KernelOrigin::triton_generated), "triton-generated");
}

TEST(Roofline, MemoryAndComputeBound) {
  const DevicePeaks peaks{2e12, 50e12};  // ridge at 25 FLOP/byte
  // A 1 GiB copy-like kernel: 0 FLOP, 2 GiB moved in 1.25 ms.
  auto copy = roofline(0.0, 2.0 * (1 << 30), 1.25e-3, peaks);
  ASSERT_TRUE(copy) << copy.error();
  EXPECT_DOUBLE_EQ(copy->ridge_point, 25.0);
  EXPECT_TRUE(copy->memory_bound);
  EXPECT_NEAR(copy->iou, 2.0 * (1 << 30) / 1.25e-3 / 2e12, 1e-12);
  EXPECT_DOUBLE_EQ(copy->mfu, 0.0);
  EXPECT_DOUBLE_EQ(copy->utilisation, copy->iou);
  // A 4096^3 matmul in fp32: 2*N^3 FLOP over 3*N^2*4 bytes.
  const double n = 4096;
  auto gemm = roofline(2 * n * n * n, 3 * n * n * 4, 5e-3, peaks);
  ASSERT_TRUE(gemm);
  EXPECT_FALSE(gemm->memory_bound);
  EXPECT_NEAR(gemm->arithmetic_intensity, 2 * n / 12, 1e-9);
  EXPECT_NEAR(gemm->mfu, 2 * n * n * n / 5e-3 / 50e12, 1e-12);
  EXPECT_DOUBLE_EQ(gemm->utilisation, gemm->mfu);
  EXPECT_NEAR(gemm->floor_seconds, 2 * n * n * n / 50e12, 1e-15);
  EXPECT_FALSE(roofline(1.0, 1.0, 0.0, peaks));
  EXPECT_FALSE(roofline(1.0, 1.0, 1.0, DevicePeaks{0.0, 1.0}));
  EXPECT_FALSE(roofline(-1.0, 1.0, 1.0, peaks));
}

TEST(Roofline, PhysicsFloor) {
  const DevicePeaks peaks{1e12, 1e14};
  // 1 GB must take at least 1 ms at 1 TB/s.
  EXPECT_FALSE(check_physics_floor(0.0, 1e9, 1.2e-3, peaks).has_value());
  EXPECT_FALSE(check_physics_floor(0.0, 1e9, 0.95e-3, peaks).has_value());  // within the 0.9 margin
  auto reason = check_physics_floor(0.0, 1e9, 1e-6, peaks);
  ASSERT_TRUE(reason.has_value());
  EXPECT_EQ(reason->id, "physics-floor");
  // The compute roof binds when it is the larger time.
  EXPECT_TRUE(check_physics_floor(1e12, 1.0, 5e-3, peaks).has_value());
  EXPECT_FALSE(check_physics_floor(0.0, 0.0, 1e-9, peaks).has_value());
}

TEST(FastP, ThresholdsAndGeomean) {
  const std::vector<TaskOutcome> outcomes{
      {"a", "Matmul", true, 2.5}, {"b", "Matmul", true, 0.5}, {"c", "Matmul", false, 10.0}, {"d", "Conv", true, 1.2}};
  EXPECT_DOUBLE_EQ(fast_p(outcomes, 0.0), 0.75);
  EXPECT_DOUBLE_EQ(fast_p(outcomes, 1.0), 0.5);
  EXPECT_DOUBLE_EQ(fast_p(outcomes, 1.5), 0.25);
  EXPECT_DOUBLE_EQ(fast_p(outcomes, 2.0), 0.25);
  EXPECT_NEAR(geomean_speedup(outcomes), std::cbrt(2.5 * 0.5 * 1.2), 1e-12);
  auto table = fast_p_table(outcomes);
  ASSERT_EQ(table.size(), 3u);
  EXPECT_EQ(table[0].category, "Conv");
  EXPECT_EQ(table[1].category, "Matmul");
  EXPECT_EQ(table[2].category, "all");
  EXPECT_EQ(table[1].tasks, 3u);
  EXPECT_NEAR(table[1].fast_p.at(1.0), 1.0 / 3.0, 1e-12);
  EXPECT_NEAR(table[1].geomean_speedup, std::sqrt(2.5 * 0.5), 1e-12);
  EXPECT_EQ(table[2].fast_p.size(), fast_p_thresholds().size());
  EXPECT_DOUBLE_EQ(fast_p({}, 1.0), 0.0);
  EXPECT_DOUBLE_EQ(geomean_speedup({{"x", "y", false, 3.0}}), 0.0);
}

}  // namespace
}  // namespace kgate::runtime
