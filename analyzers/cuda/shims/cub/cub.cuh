// KernelGate shim: CUB (block/warp collectives and device-wide algorithms).
#pragma once
#include "../cuda_runtime.h"
namespace cub {
struct Sum { template <class T> __host__ __device__ T operator()(const T& a, const T& b) const; };
struct Max { template <class T> __host__ __device__ T operator()(const T& a, const T& b) const; };
struct Min { template <class T> __host__ __device__ T operator()(const T& a, const T& b) const; };
enum BlockReduceAlgorithm { BLOCK_REDUCE_RAKING, BLOCK_REDUCE_WARP_REDUCTIONS, BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY };
enum BlockLoadAlgorithm { BLOCK_LOAD_DIRECT, BLOCK_LOAD_VECTORIZE, BLOCK_LOAD_TRANSPOSE, BLOCK_LOAD_WARP_TRANSPOSE };
enum BlockStoreAlgorithm { BLOCK_STORE_DIRECT, BLOCK_STORE_VECTORIZE, BLOCK_STORE_TRANSPOSE, BLOCK_STORE_WARP_TRANSPOSE };
enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_WARP_SCANS };
template <class T, int BLOCK_DIM_X, BlockReduceAlgorithm A = BLOCK_REDUCE_WARP_REDUCTIONS, int Y = 1, int Z = 1>
class BlockReduce {
 public:
  struct TempStorage { char bytes[1]; };
  __device__ BlockReduce();
  __device__ explicit BlockReduce(TempStorage& temp);
  __device__ T Sum(T input);
  __device__ T Sum(T input, int num_valid);
  template <class Op> __device__ T Reduce(T input, Op op);
  template <class Op> __device__ T Reduce(T input, Op op, int num_valid);
};
template <class T, int LOGICAL_WARP_THREADS = 32>
class WarpReduce {
 public:
  struct TempStorage { char bytes[1]; };
  __device__ explicit WarpReduce(TempStorage& temp);
  __device__ T Sum(T input);
  template <class Op> __device__ T Reduce(T input, Op op);
};
template <class T, int BLOCK_DIM_X, BlockScanAlgorithm A = BLOCK_SCAN_RAKING>
class BlockScan {
 public:
  struct TempStorage { char bytes[1]; };
  __device__ explicit BlockScan(TempStorage& temp);
  __device__ void InclusiveSum(T input, T& output);
  __device__ void ExclusiveSum(T input, T& output);
};
template <class T, int BLOCK_DIM_X, int ITEMS, BlockLoadAlgorithm A = BLOCK_LOAD_DIRECT>
class BlockLoad { public: struct TempStorage { char bytes[1]; }; __device__ explicit BlockLoad(TempStorage&); template <class It> __device__ void Load(It in, T (&items)[ITEMS]); };
template <class T, int BLOCK_DIM_X, int ITEMS, BlockStoreAlgorithm A = BLOCK_STORE_DIRECT>
class BlockStore { public: struct TempStorage { char bytes[1]; }; __device__ explicit BlockStore(TempStorage&); template <class It> __device__ void Store(It out, T (&items)[ITEMS]); };
struct DeviceReduce {
  template <class... A> static cudaError_t Sum(A&&...);
  template <class... A> static cudaError_t Max(A&&...);
  template <class... A> static cudaError_t Min(A&&...);
  template <class... A> static cudaError_t ArgMax(A&&...);
  template <class... A> static cudaError_t Reduce(A&&...);
};
struct DeviceSegmentedReduce { template <class... A> static cudaError_t Sum(A&&...); template <class... A> static cudaError_t Max(A&&...); template <class... A> static cudaError_t Reduce(A&&...); };
struct DeviceScan { template <class... A> static cudaError_t InclusiveSum(A&&...); template <class... A> static cudaError_t ExclusiveSum(A&&...); template <class... A> static cudaError_t InclusiveScan(A&&...); };
struct DeviceRadixSort { template <class... A> static cudaError_t SortKeys(A&&...); template <class... A> static cudaError_t SortPairs(A&&...); };
struct DeviceSelect { template <class... A> static cudaError_t If(A&&...); template <class... A> static cudaError_t Flagged(A&&...); };
struct DeviceHistogram { template <class... A> static cudaError_t HistogramEven(A&&...); };
template <class T> __device__ T ShuffleDown(T input, int src_offset, int last_thread, unsigned member_mask);
template <class T> __device__ T ThreadLoad(T* ptr);
}  // namespace cub
