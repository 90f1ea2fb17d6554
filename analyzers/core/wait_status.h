// How a child process ended, in words, from its waitpid() status: the runtime's worker and the PTX
// witness's NVRTC helper report their children's ends the same way.
#pragma once

#include <sys/wait.h>

#include <cstring>
#include <string>

namespace kgate {

// "killed by signal 11 (SIGSEGV)", "exited with code 0".
inline std::string describe_wait_status(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = ::sigabbrev_np(sig);
    return "killed by signal " + std::to_string(sig) + (name ? std::string(" (SIG") + name + ")" : std::string());
  }
  return "exited with code " + std::to_string(WEXITSTATUS(status));
}

}  // namespace kgate
