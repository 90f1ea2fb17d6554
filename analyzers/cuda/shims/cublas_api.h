// KernelGate shim: cuBLAS (declarations for name resolution only; C varargs accept any arguments).
#pragma once
#include "cuda_runtime_api.h"
#include "cuda_fp16.h"

typedef struct cublasContext* cublasHandle_t;
typedef enum { CUBLAS_STATUS_SUCCESS = 0, CUBLAS_STATUS_NOT_INITIALIZED = 1 } cublasStatus_t;
typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1, CUBLAS_OP_C = 2 } cublasOperation_t;
typedef enum { CUBLAS_DEFAULT_MATH = 0, CUBLAS_TENSOR_OP_MATH = 1, CUBLAS_PEDANTIC_MATH = 2, CUBLAS_TF32_TENSOR_OP_MATH = 3,
               CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION = 16 } cublasMath_t;
typedef enum { CUBLAS_COMPUTE_16F = 64, CUBLAS_COMPUTE_32F = 68, CUBLAS_COMPUTE_32F_FAST_16F = 74, CUBLAS_COMPUTE_32F_FAST_16BF = 75,
               CUBLAS_COMPUTE_32F_FAST_TF32 = 77, CUBLAS_COMPUTE_64F = 70 } cublasComputeType_t;
typedef enum { CUBLAS_GEMM_DEFAULT = -1, CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99 } cublasGemmAlgo_t;
typedef enum { CUBLAS_POINTER_MODE_HOST = 0, CUBLAS_POINTER_MODE_DEVICE = 1 } cublasPointerMode_t;

extern "C" {
cublasStatus_t cublasCreate_v2(cublasHandle_t* handle);
cublasStatus_t cublasDestroy_v2(cublasHandle_t handle);
cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t streamId);
cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, cudaStream_t* streamId);
cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode);
cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t mode);
cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t handle, void* workspace, size_t size);
cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, ...);
cublasStatus_t cublasDgemm_v2(cublasHandle_t handle, ...);
cublasStatus_t cublasHgemm(cublasHandle_t handle, ...);
cublasStatus_t cublasSgemmEx(cublasHandle_t handle, ...);
cublasStatus_t cublasGemmEx(cublasHandle_t handle, ...);
cublasStatus_t cublasSgemmBatched(cublasHandle_t handle, ...);
cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t handle, ...);
cublasStatus_t cublasHgemmStridedBatched(cublasHandle_t handle, ...);
cublasStatus_t cublasGemmBatchedEx(cublasHandle_t handle, ...);
cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, ...);
cublasStatus_t cublasSgemv_v2(cublasHandle_t handle, ...);
cublasStatus_t cublasSaxpy_v2(cublasHandle_t handle, ...);
cublasStatus_t cublasSdot_v2(cublasHandle_t handle, ...);
cublasStatus_t cublasSscal_v2(cublasHandle_t handle, ...);
cublasStatus_t cublasSnrm2_v2(cublasHandle_t handle, ...);
cublasStatus_t cublasSasum_v2(cublasHandle_t handle, ...);
cublasStatus_t cublasIsamax_v2(cublasHandle_t handle, ...);
cublasStatus_t cublasSgeam(cublasHandle_t handle, ...);
cublasStatus_t cublasStrsm_v2(cublasHandle_t handle, ...);
cublasStatus_t cublasSsyrk_v2(cublasHandle_t handle, ...);
}
#define cublasCreate cublasCreate_v2
#define cublasDestroy cublasDestroy_v2
#define cublasSetStream cublasSetStream_v2
#define cublasGetStream cublasGetStream_v2
#define cublasSetPointerMode cublasSetPointerMode_v2
#define cublasSetWorkspace cublasSetWorkspace_v2
#define cublasSgemm cublasSgemm_v2
#define cublasDgemm cublasDgemm_v2
#define cublasSgemv cublasSgemv_v2
#define cublasSaxpy cublasSaxpy_v2
#define cublasSdot cublasSdot_v2
#define cublasSscal cublasSscal_v2
#define cublasSnrm2 cublasSnrm2_v2
#define cublasSasum cublasSasum_v2
#define cublasIsamax cublasIsamax_v2
#define cublasStrsm cublasStrsm_v2
#define cublasSsyrk cublasSsyrk_v2
