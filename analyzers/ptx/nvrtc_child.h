// NVRTC in a child process: the PTX witness's compilations run in kgate-nvrtc (helper/kgate_nvrtc.cpp),
// one long-lived helper per analysing thread, started on the thread's first compilation. A source that
// crashes NVRTC ends the helper, not kgate; a compilation that runs past the file's time limit is
// killed. The helper's CPU time counts against the file's budget as the analysing thread's own did.
#pragma once

#include <string>
#include <vector>

namespace kgate::ptx {

struct NvrtcJob {
  std::string prelude;                        // the pre-included header (kgate_ptx_prelude.h)
  std::string text;                           // the device text
  std::vector<std::string> name_expressions;  // template instantiations to add (nvrtcAddNameExpression)
};

struct NvrtcOutcome {
  enum class Kind {
    Compiled,     // text: the PTX
    Failed,       // text: NVRTC's reason (the source does not compile, NVRTC cannot be loaded)
    Crashed,      // text: how the helper ended (NVRTC crashed on the source); worth no cache entry
    OverTime,     // the file's time limit passed while NVRTC ran: the helper was killed, the budget is spent
    Unavailable,  // text: why no helper could be started
  };
  Kind kind = Kind::Unavailable;
  std::string text;
};

// The helper kgate-nvrtc: $KGATE_NVRTC_HELPER, else beside the running executable, else under an install
// prefix's bin/, else the build tree's.
std::string nvrtc_helper_path();

// Compiles `job` in this thread's helper (starting it if needed).
NvrtcOutcome compile_in_child(const NvrtcJob& job);

}  // namespace kgate::ptx
