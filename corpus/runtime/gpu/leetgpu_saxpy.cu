// runtime-task: corpus/runtime/tasks/leetgpu_saxpy/challenge.py
// runtime-expect: pass
// Honest LeetGPU CUDA submission: the harness builds this file into a shared library and calls its
// extern "C" solve with device pointers and the sizes; one thread per element, grid-stride for any N.
#include <cuda_runtime.h>

__global__ void saxpy_kernel(const float* x, const float* y, float* out, float alpha, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        out[i] = alpha * x[i] + y[i];
    }
}

extern "C" void solve(const float* x, const float* y, float* out, float alpha, int N) {
    const int threads = 256;
    int blocks = (N + threads - 1) / threads;
    if (blocks > 4096) blocks = 4096;
    saxpy_kernel<<<blocks, threads>>>(x, y, out, alpha, N);
    cudaDeviceSynchronize();
}
