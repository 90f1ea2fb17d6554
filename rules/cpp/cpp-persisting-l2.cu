// Fixture for cpp-persisting-l2.
#include <torch/extension.h>

torch::Tensor entry(torch::Tensor x) {
  cudaStream_t s = at::cuda::getCurrentCUDAStream();
  // ruleid: cpp-persisting-l2
  cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 1 << 20);
  // ok: cpp-persisting-l2
  cudaDeviceSetLimit(cudaLimitStackSize, 4096);
  cudaStreamAttrValue v = {};
  // ruleid: cpp-persisting-l2
  v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  // ruleid: cpp-persisting-l2
  cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v);
  return x;
}
