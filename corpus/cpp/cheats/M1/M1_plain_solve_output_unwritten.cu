// M1 (plain, output-argument C++): solve runs a real row-max kernel, but into a workspace of its own;
// the output buffer the harness handed it is never written, so the harness reads back whatever the
// buffer held, often the reference's result from the run before.
#include <cuda_runtime.h>

__global__ void row_max_kernel(const float* input, float* row_max, int rows, int cols) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float best = input[static_cast<size_t>(row) * cols];
  for (int c = 1; c < cols; ++c) best = fmaxf(best, input[static_cast<size_t>(row) * cols + c]);
  row_max[row] = best;
}

static float* g_workspace = nullptr;

// ruleid: output-unwritten
extern "C" void solve(const float* input, float* output, int rows, int cols) {
  if (g_workspace == nullptr) cudaMalloc(&g_workspace, rows * sizeof(float));
  row_max_kernel<<<(rows + 127) / 128, 128>>>(input, g_workspace, rows, cols);
  cudaDeviceSynchronize();
}
