// What the PTX of a compiled source shows about each kernel: the PTX witness's reading of NVRTC's output.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kgate::ptx {

struct PtxKernel {
  std::string symbol;  // the .entry's name as in the PTX ("_Z4relyPKfPfi", or unmangled for extern "C")
  std::string name;    // the source name it demangles to, without parameters or template arguments ("ns::k")
  // Any instruction that may write global memory: st to global or to a generic address, atom/red not
  // on shared memory, bulk copies and reductions into global memory (TMA), wmma.store, multimem.
  bool stores = false;
  // Calls of other device functions that stayed calls (not inlined): what they do is not read here, so
  // a kernel with such a call is never said to store nothing.
  std::vector<std::string> calls;
  // Calls of functions the PTX only declares (.extern .func): device code from outside the source
  // (CUDA's own vprintf, __assertfail, malloc, free and the device launch API are not listed).
  std::vector<std::string> external_calls;
  // The accumulator (D) type of every mma.sync / wmma.mma.sync / wgmma.mma_async: "f16", "f32", "s32".
  std::vector<std::string> mma_accumulators;
  // Narrowing conversions of a 32-bit float: the PTX type converted to ("f16", "bf16", "tf32", "e4m3", ...).
  std::vector<std::string> narrowing_conversions;
};

std::vector<PtxKernel> scan_ptx(std::string_view ptx);

// "k" for "_Z1kPf", "ns::k" for "_ZN2ns1kIfEEvPT_" (template arguments dropped), the symbol itself when
// it is not mangled (extern "C").
std::string source_name(std::string_view symbol);

}  // namespace kgate::ptx
