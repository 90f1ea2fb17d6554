// runtime-task: corpus/runtime/tasks/leetgpu_histogram/challenge.py
// runtime-expect: fail
// M12 (LeetGPU CUDA): written for the timed case only: 128 bins, fixed at compile time, clears and
// writes 128 bins whatever num_bins is, so every other functional case is wrong (or written past its end).
#include <cuda_runtime.h>

#define BINS 128

__global__ void histogram_kernel(const int* values, int* histogram, int n) {
    __shared__ int local[BINS];
    if (threadIdx.x < BINS) local[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&local[values[i] % BINS], 1);
    __syncthreads();
    if (threadIdx.x < BINS) atomicAdd(&histogram[threadIdx.x], local[threadIdx.x]);
}

extern "C" void solve(const int* values, int* histogram, int N, int num_bins) {
    cudaMemset(histogram, 0, BINS * sizeof(int));
    histogram_kernel<<<(N + 255) / 256, 256>>>(values, histogram, N);
    cudaDeviceSynchronize();
}
