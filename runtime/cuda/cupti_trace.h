// CUPTI's activity API in the worker: every kernel (concurrent-kernel records), memcpy and memset the
// process runs, with names, grid, block, stream and GPU timestamps. The worker drains the records after
// each call; the judge classifies them (runtime/trace.h). Built only with KGATE_HAVE_CUDA.
#pragma once

#include <cstdint>

#include "analyzers/core/status.h"
#include "runtime/trace.h"

namespace kgate::runtime::cuda {

// Registers the buffer callbacks and enables the kernel, memcpy and memset activity kinds. Once per
// process, before the calls to trace (CUDA may already be initialised).
Status start_activity_trace();

// Flushes CUPTI's buffers (forced) and returns every record completed since the last drain, oldest
// first. `dropped` gets the number of records CUPTI could not store since then (0 normally).
Trace drain_activity_trace(std::uint64_t* dropped = nullptr);

}  // namespace kgate::runtime::cuda
