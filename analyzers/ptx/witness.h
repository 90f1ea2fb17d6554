// The PTX witness: a second reading of a submission's CUDA kernels, below the source.
//
// The C++ engines read the source; macros, templates and `asm` labels can make it say one thing while
// the compiler builds another (a store under a condition that never holds, a template instantiated
// without its write, a half-precision accumulator behind a macro). Where the CUDA toolkit's NVRTC is
// built in (CMake option KGATE_WITH_NVRTC), every CUDA module of a submission (a raw .cu file, a
// load_inline cuda_sources string) is compiled to PTX (device_text.h says what is compiled) and each
// kernel's PTX is read (ptx_scan.h). What it shows lands in the facts the rules already read:
//   Function.decorators  "ptx-compiled"          the kernel's PTX was read
//                        "ptx-stores-nothing"    and no instruction of it may write global memory
//                                                (no store, atomic, reduction, bulk copy, or call)
//                        "ptx-external-call"     it calls device code the source does not define
//   Cast facts           via "ptx-mma"           an MMA whose accumulator type is below fp32
//                        via "ptx-cvt"           a conversion of an fp32 value to a narrower type
// Rules (rules/cpp/ptx-*.yaml, cpp-precision-downgrade) judge them. A module NVRTC cannot compile, and
// every CUDA module of a binary built without NVRTC, gets the note `ptx-witness-not-run` with the reason:
// the cross-check did not run there, and the gate says so.
#pragma once

#include <vector>

#include "analyzers/core/diagnostic.h"
#include "analyzers/core/facts.h"
#include "analyzers/core/source.h"

namespace kgate::ptx {

// Whether this binary was built with NVRTC.
bool witness_built();

// Compiles each CUDA module of `facts` and records what its PTX shows (see above). Runs after the C++
// engines and the cross-language link (a Cast fact takes its kernel's reachability).
void witness(const SourceFile& host, FactSet& facts, std::vector<Diagnostic>& diagnostics);

}  // namespace kgate::ptx
