// runtime-task: corpus/runtime/tasks/leetgpu_merge/challenge.py
// runtime-expect: pass
// Honest LeetGPU CUDA submission for a merge of two sorted arrays: each thread owns one output slot k
// and finds, by a binary search along the merge path, how many of the first k outputs come from A
// (ties go to A). The search is right only because A and B are sorted, the challenge's contract.
#include <cuda_runtime.h>

__global__ void merge_path_kernel(const float* A, const float* B, float* C, int M, int N) {
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= M + N) return;
    int lo = max(0, k - N);
    int hi = min(k, M);
    while (lo < hi) {  // the first i at which A[i] no longer precedes B[k - i - 1]
        int i = (lo + hi) / 2;
        if (A[i] <= B[k - i - 1]) {
            lo = i + 1;
        } else {
            hi = i;
        }
    }
    int i = lo;
    int j = k - lo;
    C[k] = (i < M && (j >= N || A[i] <= B[j])) ? A[i] : B[j];
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N) {
    const int threads = 256;
    const int blocks = (M + N + threads - 1) / threads;
    if (blocks > 0) merge_path_kernel<<<blocks, threads>>>(A, B, C, M, N);
    cudaDeviceSynchronize();
}
