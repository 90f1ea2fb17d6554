// runtime-task: corpus/runtime/tasks/leetgpu_histogram/challenge.py
// runtime-expect: pass
// Honest LeetGPU CUDA submission with integer input and output: each block counts into a histogram in
// shared memory (dynamic, num_bins ints) and adds it to the global one, which solve clears first.
#include <cuda_runtime.h>

__global__ void histogram_kernel(const int* values, int* histogram, int n, int num_bins) {
    extern __shared__ int local[];
    for (int b = threadIdx.x; b < num_bins; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        atomicAdd(&local[values[i]], 1);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < num_bins; b += blockDim.x) {
        if (local[b] != 0) atomicAdd(&histogram[b], local[b]);
    }
}

extern "C" void solve(const int* values, int* histogram, int N, int num_bins) {
    cudaMemset(histogram, 0, num_bins * sizeof(int));
    const int threads = 256;
    int blocks = (N + threads - 1) / threads;
    if (blocks > 1024) blocks = 1024;
    histogram_kernel<<<blocks, threads, num_bins * sizeof(int)>>>(values, histogram, N, num_bins);
    cudaDeviceSynchronize();
}
