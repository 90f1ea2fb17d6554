// Fixture for cpp-static-pointer-state: pointers assigned into static state at run time.
#include <torch/extension.h>

// ruleid: cpp-static-pointer-state
static float* stash = nullptr;
// ok: cpp-static-pointer-state
static const char* kName = "entry";

torch::Tensor entry(torch::Tensor x) {
  stash = x.data_ptr<float>();
  return x;
}
