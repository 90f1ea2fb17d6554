// NVRTC in a child process (nvrtc_child.h): one kgate-nvrtc per analysing thread, spoken to over one
// socket that is the helper's stdin and stdout.
#include "analyzers/ptx/nvrtc_child.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "analyzers/core/budget.h"
#include "analyzers/core/data_dir.h"
#include "analyzers/core/wait_status.h"
#include "analyzers/ptx/nvrtc_protocol.h"

extern char** environ;

namespace kgate::ptx {
namespace {

// The CPU time (user and system) a live child has used, in ms, from /proc/<pid>/stat; 0 if unreadable.
uint64_t child_cpu_ms(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t paren = stat.rfind(')');  // the command name may hold spaces; the fields follow its ')'
  if (paren == std::string::npos) return 0;
  std::istringstream fields(stat.substr(paren + 2));
  std::string field;
  unsigned long long utime = 0;
  unsigned long long stime = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {  // utime is field 14, stime 15 (proc(5))
    if (i == 14) utime = std::strtoull(field.c_str(), nullptr, 10);
    if (i == 15) stime = std::strtoull(field.c_str(), nullptr, 10);
  }
  const long ticks = ::sysconf(_SC_CLK_TCK);
  return ticks > 0 ? (utime + stime) * 1000 / static_cast<unsigned long long>(ticks) : 0;
}

class Helper {
 public:
  Helper() = default;
  Helper(const Helper&) = delete;
  Helper& operator=(const Helper&) = delete;
  ~Helper() { stop(false); }

  NvrtcOutcome compile(const NvrtcJob& job) {
    if (pid_ <= 0)
      if (std::string why = start(); !why.empty()) return {NvrtcOutcome::Kind::Unavailable, std::move(why)};
    std::vector<std::string> request{job.prelude, job.text};
    request.insert(request.end(), job.name_expressions.begin(), job.name_expressions.end());
    const uint64_t cpu_before = child_cpu_ms(pid_);
    if (!protocol::write_message(fd_, request)) return ended();
    if (!wait_readable(cpu_before)) {
      stop(true);
      return {NvrtcOutcome::Kind::OverTime, "NVRTC ran past the file's time limit and was stopped"};
    }
    std::vector<std::string> answer;
    if (!protocol::read_message(fd_, answer) || answer.size() != 3) return ended();
    if (FileBudget* budget = FileBudget::current())
      budget->charge_cpu_ms(std::strtoull(answer[2].c_str(), nullptr, 10));
    if (answer[0] == "ok") return {NvrtcOutcome::Kind::Compiled, std::move(answer[1])};
    return {NvrtcOutcome::Kind::Failed, std::move(answer[1])};
  }

 private:
  std::string start() {
    const std::string path = nvrtc_helper_path();
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0)
      return std::string("cannot make a socket for kgate-nvrtc: ") + std::strerror(errno);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pair[1], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, pair[1], STDOUT_FILENO);
    // NVRTC's own messages (and a crash's) are not kgate's output.
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    char* argv[] = {const_cast<char*>(path.c_str()), nullptr};
    const int spawned = ::posix_spawn(&pid_, path.c_str(), &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(pair[1]);
    if (spawned != 0) {
      ::close(pair[0]);
      pid_ = -1;
      return "kgate-nvrtc could not be started (" + path + ": " + std::strerror(spawned) + ")";
    }
    fd_ = pair[0];
    return {};
  }

  // Waits for the answer. Under a budget with a time limit, the helper's CPU time since the request is
  // checked once the wall clock has passed what is left (CPU time <= wall time): false once it passed
  // too, and the budget is then spent.
  bool wait_readable(uint64_t cpu_before) {
    FileBudget* budget = FileBudget::current();
    const uint64_t used = budget ? budget->elapsed_ms() : 0;
    const bool limited = budget && budget->max_ms() > 0;
    const uint64_t left = limited && budget->max_ms() > used ? budget->max_ms() - used : 0;
    const auto started = std::chrono::steady_clock::now();
    for (;;) {
      pollfd p{fd_, POLLIN, 0};
      const int ready = ::poll(&p, 1, limited ? 100 : -1);
      if (ready > 0) return true;  // an answer, or the end of the stream (read_message tells which)
      if (ready < 0 && errno != EINTR) return true;
      if (!limited) continue;
      const auto wall = static_cast<uint64_t>(
          std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count());
      if (wall <= left) continue;
      const uint64_t cpu = child_cpu_ms(pid_) - cpu_before;
      if (cpu > left) {
        budget->charge_cpu_ms(cpu);
        (void)budget->exhausted();
        return false;
      }
    }
  }

  // The helper ended without an answer: NVRTC crashed on this source.
  NvrtcOutcome ended() {
    const int status = stop(true);
    return {NvrtcOutcome::Kind::Crashed, "NVRTC crashed on its device code (kgate-nvrtc " +
                                             describe_wait_status(status) + "; the gate ran it in a child process)"};
  }

  // Ends the helper (killing it when asked) and returns its wait status.
  int stop(bool kill) {
    int status = 0;
    if (fd_ >= 0) ::close(fd_);  // a helper waiting for a request reads the end of stdin and exits
    fd_ = -1;
    if (pid_ > 0) {
      if (kill) ::kill(pid_, SIGKILL);
      while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
    }
    pid_ = -1;
    return status;
  }

  pid_t pid_ = -1;
  int fd_ = -1;
};

}  // namespace

std::string nvrtc_helper_path() {
  if (const char* env = std::getenv("KGATE_NVRTC_HELPER"); env && *env) return env;
  return companion_program("kgate-nvrtc").string();
}

NvrtcOutcome compile_in_child(const NvrtcJob& job) {
  thread_local Helper helper;
  return helper.compile(job);
}

}  // namespace kgate::ptx
