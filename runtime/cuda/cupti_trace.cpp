// The CUPTI activity collector: buffers handed to CUPTI, records parsed as they complete.
#include "runtime/cuda/cupti_trace.h"

#include <cupti.h>

#include <cstdlib>
#include <cstring>
#include <vector>
#include <mutex>
#include <string>
#include <utility>

namespace kgate::runtime::cuda {
namespace {

constexpr std::size_t kBufferBytes = std::size_t{4} << 20;
constexpr std::size_t kBufferAlign = 8;
constexpr std::size_t kPoolMax = 8;

// Buffers are recycled, never freed while tracing: CUPTI asks for one at the first record after a drain,
// which may fall inside a timed call, and a recycled buffer keeps mapping and page faults out of it.
// (The larger cost there is CUPTI's own after a forced flush: the worker drains only after a call.)
struct BufferPool {
  std::mutex mutex;
  std::vector<std::uint8_t*> free;
};

BufferPool& pool() {
  static BufferPool* p = new BufferPool();  // never destroyed, like the collector
  return *p;
}

std::uint8_t* new_buffer() {
  auto* buffer = static_cast<std::uint8_t*>(std::aligned_alloc(kBufferAlign, kBufferBytes));
  if (buffer) std::memset(buffer, 0, kBufferBytes);  // fault every page in now
  return buffer;
}

struct Collected {
  std::mutex mutex;
  Trace trace;
  std::uint64_t dropped = 0;
};

Collected& collected() {
  static Collected* c = new Collected();  // never destroyed: CUPTI may call back during exit
  return *c;
}

MemoryOp memcpy_op(std::uint8_t kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
      return MemoryOp::memcpy_htod;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
      return MemoryOp::memcpy_dtoh;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
      return MemoryOp::memcpy_dtod;
    default:
      return MemoryOp::memcpy_other;
  }
}

std::uint32_t dim(std::int32_t v) { return v > 0 ? static_cast<std::uint32_t>(v) : 0u; }

void CUPTIAPI buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  {
    BufferPool& p = pool();
    std::lock_guard lock(p.mutex);
    if (!p.free.empty()) {
      *buffer = p.free.back();
      p.free.pop_back();
    } else {
      *buffer = nullptr;
    }
  }
  if (!*buffer) *buffer = new_buffer();
  *size = *buffer ? kBufferBytes : 0;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t, std::size_t valid) {
  Trace parsed;
  CUpti_Activity* record = nullptr;
  while (buffer && cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    switch (record->kind) {
      case CUPTI_ACTIVITY_KIND_KERNEL:
      case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
        KernelRecord r;
        r.name = k->name ? k->name : "";
        r.grid = {dim(k->gridX), dim(k->gridY), dim(k->gridZ)};
        r.block = {dim(k->blockX), dim(k->blockY), dim(k->blockZ)};
        r.stream = k->streamId;
        r.start_ns = k->start;
        r.end_ns = k->end;
        r.graph = k->graphId != 0;
        parsed.kernels.push_back(std::move(r));
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
        parsed.memory.push_back({memcpy_op(m->copyKind), m->bytes, m->streamId, m->start, m->end});
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMSET: {
        const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
        parsed.memory.push_back({MemoryOp::memset, m->bytes, m->streamId, m->start, m->end});
        break;
      }
      default:
        break;
    }
  }
  std::size_t dropped = 0;
  cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped);
  if (buffer) {
    BufferPool& p = pool();
    std::lock_guard lock(p.mutex);
    if (p.free.size() < kPoolMax)
      p.free.push_back(buffer);
    else
      std::free(buffer);
  }
  Collected& c = collected();
  std::lock_guard lock(c.mutex);
  for (auto& k : parsed.kernels) c.trace.kernels.push_back(std::move(k));
  for (auto& m : parsed.memory) c.trace.memory.push_back(m);
  c.dropped += dropped;
}

Status check(CUptiResult rc, const char* what) {
  if (rc == CUPTI_SUCCESS) return Status::ok();
  const char* text = nullptr;
  cuptiGetResultString(rc, &text);
  return Error{std::string("CUPTI ") + what + ": " + (text ? text : "unknown error")};
}

}  // namespace

Status start_activity_trace() {
  {
    BufferPool& p = pool();
    std::lock_guard lock(p.mutex);
    for (int i = 0; i < 3; ++i)
      if (auto* buffer = new_buffer()) p.free.push_back(buffer);
  }
  if (Status s = check(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed), "register callbacks"); !s)
    return s;
  // CONCURRENT_KERNEL keeps kernels concurrent (KERNEL would serialise them and change the timing).
  for (const auto kind :
       {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET})
    if (Status s = check(cuptiActivityEnable(kind), "enable activity"); !s) return s;
  return Status::ok();
}

Trace drain_activity_trace(std::uint64_t* dropped) {
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  Collected& c = collected();
  std::lock_guard lock(c.mutex);
  Trace out = std::exchange(c.trace, Trace{});
  if (dropped) *dropped = std::exchange(c.dropped, 0);
  return out;
}

}  // namespace kgate::runtime::cuda
