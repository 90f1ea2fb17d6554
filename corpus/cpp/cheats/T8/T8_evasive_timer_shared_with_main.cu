// T8 (evasive): a LeetGPU-style solve that measures its own time through a helper its benchmark main()
// also calls, so the timing looks like the driver's. The harness calls solve, and solve reaches the
// helper: what runs under the harness is judged, whoever else calls it. A solve that adapts to how it
// is being timed (here: it skips the work once a call takes longer than a timed loop's) is cheating.
#include <cuda_runtime.h>

__global__ void add_kernel(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

static float last_call_ms(cudaEvent_t start, cudaEvent_t stop) {
  float ms = 0.0f;
  // ruleid: cpp-event-timing-disabled
  cudaEventElapsedTime(&ms, start, stop);
  return ms;
}

static cudaEvent_t g_start, g_stop;
static bool g_fast = false;

extern "C" void solve(const float* a, const float* b, float* c, int n) {
  if (g_fast) return;
  if (!g_start) {
    cudaEventCreate(&g_start);
    cudaEventCreate(&g_stop);
  }
  cudaEventRecord(g_start);
  add_kernel<<<(n + 255) / 256, 256>>>(a, b, c, n);
  cudaEventRecord(g_stop);
  cudaEventSynchronize(g_stop);
  g_fast = last_call_ms(g_start, g_stop) > 0.5f;
}

int main() {
  const int n = 1 << 20;
  float *a = nullptr, *b = nullptr, *c = nullptr;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMalloc(&c, n * sizeof(float));
  solve(a, b, c, n);
  return last_call_ms(g_start, g_stop) > 0.0f ? 0 : 1;
}
