// KernelGate shim: CUTLASS (numeric types, layouts, device-level GEMM) for name resolution.
#pragma once
#include "../cuda_runtime.h"
#include "../cuda_bf16.h"
#define CUTLASS_HOST_DEVICE __host__ __device__ __forceinline__
#define CUTLASS_DEVICE __device__ __forceinline__
#define CUTLASS_PRAGMA_UNROLL
#define CUTLASS_CHECK(status) (void)(status)
namespace cutlass {
enum class Status { kSuccess, kErrorInvalidProblem, kErrorNotSupported, kErrorWorkspaceNull, kErrorInternal };
const char* cutlassGetStatusString(Status s);
struct half_t { uint16_t storage; half_t() = default; __host__ __device__ explicit half_t(float); __host__ __device__ operator float() const; };
struct bfloat16_t { uint16_t storage; bfloat16_t() = default; __host__ __device__ explicit bfloat16_t(float); __host__ __device__ operator float() const; };
struct tfloat32_t { uint32_t storage; tfloat32_t() = default; __host__ __device__ explicit tfloat32_t(float); __host__ __device__ operator float() const; };
struct float_e4m3_t { uint8_t storage; };
struct float_e5m2_t { uint8_t storage; };
template <class T, int N> struct Array { T storage[N]; __host__ __device__ T& operator[](int i); };
template <class T, int N> struct AlignedArray : Array<T, N> {};
template <class T> struct NumericConverter { __host__ __device__ T operator()(float) const; };
namespace layout { struct RowMajor { }; struct ColumnMajor { }; struct TensorNHWC { }; }
namespace arch { struct Sm70 {}; struct Sm75 {}; struct Sm80 {}; struct Sm90 {}; struct OpClassSimt {}; struct OpClassTensorOp {}; struct OpMultiplyAdd {}; }
namespace gemm {
struct GemmCoord { GemmCoord(int m, int n, int k); int m() const; int n() const; int k() const; };
template <int M, int N, int K> struct GemmShape { static constexpr int kM = M, kN = N, kK = K; };
namespace threadblock { template <int N = 1> struct GemmIdentityThreadblockSwizzle {}; }
namespace device {
template <class... Params> class Gemm {
 public:
  struct Arguments { template <class... A> Arguments(A&&... args); Arguments(); };
  static Status can_implement(const Arguments& args);
  static size_t get_workspace_size(const Arguments& args);
  Status initialize(const Arguments& args, void* workspace = nullptr, cudaStream_t stream = nullptr);
  Status run(cudaStream_t stream = nullptr);
  Status operator()(cudaStream_t stream = nullptr);
  Status operator()(const Arguments& args, void* workspace = nullptr, cudaStream_t stream = nullptr);
};
template <class... Params> class GemmBatched : public Gemm<Params...> {};
template <class... Params> class GemmSplitKParallel : public Gemm<Params...> {};
template <class... Params> class GemmUniversal : public Gemm<Params...> {};
template <class Kernel> class GemmUniversalAdapter : public Gemm<Kernel> {};
}  // namespace device
}  // namespace gemm
namespace conv { namespace device { template <class Kernel> class ImplicitGemmConvolution : public gemm::device::Gemm<Kernel> {}; } }
namespace epilogue { namespace thread {
template <class... P> struct LinearCombination { struct Params { template <class... A> Params(A&&...); }; };
template <class... P> struct LinearCombinationRelu : LinearCombination<P...> {};
} }
template <class T, class Layout> struct TensorRef { TensorRef(T* p, Layout l); TensorRef(T* p, int ld); };
}  // namespace cutlass
