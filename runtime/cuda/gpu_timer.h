// Timing one call on the GPU so that the call cannot shape its own measurement: the persisting-L2
// lines are reset and the L2 flushed before it (T15), the end is recorded after a device-wide
// synchronize (T1), and a second end event on the caller's stream shows work that escaped that stream.
// Built only where the CUDA toolkit is found (KGATE_HAVE_CUDA); used by the worker around the
// candidate's forward and by the judge around the reference's.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "analyzers/core/status.h"
#include "runtime/timing.h"

namespace kgate::runtime::cuda {

// What a call may have left behind in the L2 configuration: a persisting carve-out, or an
// access-policy window on the stream it ran on (both are how operands get pinned in L2: T15).
struct L2State {
  std::size_t persisting_limit = 0;  // cudaLimitPersistingL2CacheSize
  std::size_t window_bytes = 0;      // the current stream's cudaStreamAttributeAccessPolicyWindow.num_bytes
  // The set-aside the device keeps after the timer's own reset to zero (an H100 here kept 9,830,400
  // bytes): only a set-aside above it, or any window, is the call's doing.
  std::size_t baseline_limit = 0;
};

class GpuTimer {
 public:
  // Reads the device's L2 size and allocates a flush buffer of twice that, plus the events.
  static Result<std::unique_ptr<GpuTimer>> create();
  ~GpuTimer();
  GpuTimer(const GpuTimer&) = delete;
  GpuTimer& operator=(const GpuTimer&) = delete;

  // Before a call: reset the persisting-L2 lines, cap the carve-out at zero, clear the current stream's
  // access-policy window, write the flush buffer (evicting the L2), and wait for all of it.
  Status prepare();
  // The start event on the current stream (remembered for the call), and the host clock.
  Status begin();
  // Right after forward returns: the marker memset (kEndOfForwardMarkerBytes, traced by CUPTI) and an end event on
  // the stream of begin().
  Status end_of_forward();
  // Device-wide synchronize (a CUDA error of the call surfaces here), the device end event, the host
  // clock, and the three times.
  Result<TimedCall> finish();
  // The L2 configuration after the call.
  Result<L2State> l2_state() const;

  std::size_t flush_bytes() const { return flush_bytes_; }
  std::size_t l2_bytes() const { return l2_bytes_; }

 private:
  GpuTimer() = default;
  void* flush_ = nullptr;
  std::size_t flush_bytes_ = 0;
  std::size_t l2_bytes_ = 0;
  std::size_t baseline_limit_ = 0;
  unsigned flush_value_ = 0;
  void* start_ = nullptr;       // cudaEvent_t
  void* stream_end_ = nullptr;  // cudaEvent_t
  void* device_end_ = nullptr;  // cudaEvent_t
  void* stream_ = nullptr;      // cudaStream_t of begin()
  std::chrono::steady_clock::time_point host_start_;
};

}  // namespace kgate::runtime::cuda
