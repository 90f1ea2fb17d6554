// runtime-task: corpus/runtime/tasks/leetgpu_saxpy/challenge.py
// runtime-expect: fail input-mutated
// M3 (LeetGPU CUDA): accumulates alpha * x into y, an input it was handed as const, then copies y into
// the output: the answer is right and the caller's y is gone.
#include <cuda_runtime.h>

__global__ void accumulate_kernel(const float* x, float* y, float alpha, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += alpha * x[i];
}

extern "C" void solve(const float* x, const float* y, float* out, float alpha, int N) {
    float* writable = const_cast<float*>(y);
    accumulate_kernel<<<(N + 255) / 256, 256>>>(x, writable, alpha, N);
    cudaMemcpy(out, writable, N * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaDeviceSynchronize();
}
