// Test entry for the CUDA analyzer tests: registers the Clang engine when it is built in.
#include <gtest/gtest.h>

#ifdef KGATE_HAVE_CLANG
#include "analyzers/cuda/clang/clang_engine.h"
#endif

int main(int argc, char** argv) {
#ifdef KGATE_HAVE_CLANG
  kgate::cuda::clang_init();
#endif
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
