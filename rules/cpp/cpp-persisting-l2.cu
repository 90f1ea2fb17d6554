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
  // The same features chosen by their numbers.
  // ruleid: cpp-persisting-l2
  cudaDeviceSetLimit((cudaLimit)6, 1 << 20);
  // ok: cpp-persisting-l2
  cudaDeviceSetLimit(static_cast<cudaLimit>(0), 4096);
  cudaLaunchAttribute attrs[1];
  // ruleid: cpp-persisting-l2
  attrs[0].id = static_cast<cudaLaunchAttributeID>(1);
  // ok: cpp-persisting-l2
  attrs[0].id = static_cast<cudaLaunchAttributeID>(4);
  return x;
}
