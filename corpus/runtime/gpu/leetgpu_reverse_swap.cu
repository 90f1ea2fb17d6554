// runtime-task: corpus/runtime/tasks/leetgpu_reverse/challenge.py
// runtime-expect: pass
// Honest LeetGPU CUDA submission for an "inout" array: each thread swaps one element of the first half
// with its mirror, in place.
#include <cuda_runtime.h>

__global__ void reverse_kernel(float* data, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 2) {
        float front = data[i];
        data[i] = data[n - 1 - i];
        data[n - 1 - i] = front;
    }
}

extern "C" void solve(float* data, int N) {
    const int threads = 256;
    const int blocks = (N / 2 + threads - 1) / threads;
    if (blocks > 0) reverse_kernel<<<blocks, threads>>>(data, N);
    cudaDeviceSynchronize();
}
