// Fixture for cpp-graph-replay.
#include <torch/extension.h>
#include <ATen/cuda/CUDAGraph.h>

torch::Tensor entry(torch::Tensor x) {
  cudaStream_t s = at::cuda::getCurrentCUDAStream();
  cudaGraph_t g;
  cudaGraphExec_t e;
  // ruleid: cpp-graph-replay
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  // ruleid: cpp-graph-replay
  cudaStreamEndCapture(s, &g);
  // ruleid: cpp-graph-replay
  cudaGraphInstantiate(&e, g, 0);
  // ruleid: cpp-graph-replay
  cudaGraphLaunch(e, s);
  // ruleid: cpp-graph-replay
  at::cuda::CUDAGraph graph;
  // ruleid: cpp-graph-replay
  graph.replay();
  // ok: cpp-graph-replay
  cudaStreamSynchronize(s);
  return x;
}
