// KernelGate shim: cooperative_groups.h.
#pragma once
#include "kgate_cuda_defs.h"
namespace cooperative_groups {
struct thread_group { __device__ void sync() const; __device__ unsigned size() const; __device__ unsigned thread_rank() const; };
struct thread_block : thread_group { __device__ dim3 group_index() const; __device__ dim3 thread_index() const; };
struct grid_group : thread_group { __device__ bool is_valid() const; };
template <unsigned N> struct thread_block_tile : thread_group {
  template <class T> __device__ T shfl_down(T v, unsigned d) const;
  template <class T> __device__ T shfl_xor(T v, unsigned d) const;
  template <class T> __device__ T shfl(T v, int src) const;
  __device__ unsigned meta_group_rank() const;
};
__device__ thread_block this_thread_block();
__device__ grid_group this_grid();
template <unsigned N, class P> __device__ thread_block_tile<N> tiled_partition(const P& parent);
template <class G> __device__ void sync(const G& g);
template <class T> struct plus { __device__ T operator()(T a, T b) const { return a + b; } };
template <class T> struct greater { __device__ T operator()(T a, T b) const { return a > b ? a : b; } };
template <class G, class T, class Op> __device__ T reduce(const G& g, T v, Op op);
}  // namespace cooperative_groups
