// Landlock, seccomp-bpf and rlimits for the worker process.
#include "runtime/sandbox.h"

#include <linux/landlock.h>
#include <fcntl.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <ucontext.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <cstddef>
#include <cstdint>
#include <cerrno>
#include <cstring>
#include <string_view>
#include <vector>

namespace kgate::runtime {
namespace {

// Syscalls that end the worker with a sandbox-violation verdict.
constexpr const char* kProcessStarters[] = {"execve", "execveat", "fork", "vfork"};
constexpr const char* kTrapped[] = {
    "socket",
    "socketpair",
    "connect",
    "bind",
    "listen",
    "accept",
    "accept4",
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "mount",
    "umount2",
    "unshare",
    "setns",
    "chroot",
    "pivot_root",
    "bpf",
    "userfaultfd",
    "keyctl",
    "add_key",
    "request_key",
    "open_by_handle_at",
    "io_uring_setup",
    "kexec_load",
    "init_module",
    "finit_module",
};

// Names of the trapped syscalls by number, filled before the filter is loaded (the handler may not allocate).
constexpr int kMaxSyscall = 1024;
const char* g_names[kMaxSyscall] = {};
int g_control_fd = -1;
std::atomic<bool> g_reported{false};

void append(char* buffer, std::size_t* at, std::size_t cap, const char* text) {
  for (; *text && *at < cap; ++text) buffer[(*at)++] = *text;
}

// Async-signal-safe: a fixed buffer and write(2) only.
void write_violation(const char* name, const char* suffix) {
  char frame[256];
  std::size_t at = 4;
  append(frame, &at, sizeof frame, "{\"op\":\"violation\",\"syscall\":\"");
  append(frame, &at, sizeof frame, name);
  append(frame, &at, sizeof frame, suffix);
  append(frame, &at, sizeof frame, "\"}");
  const std::size_t body = at - 4;
  for (int i = 0; i < 4; ++i) frame[i] = static_cast<char>((body >> (8 * i)) & 0xff);
  std::size_t sent = 0;
  while (sent < at) {
    const ssize_t w = ::write(g_control_fd, frame + sent, at - sent);
    if (w <= 0) break;
    sent += static_cast<std::size_t>(w);
  }
}

// Async-signal-safe: fixed buffers, write(2) and _exit(2) only.
void on_sigsys(int, siginfo_t* info, void* context) {
  if (!g_reported.exchange(true)) {
    const int nr = info->si_syscall;
    char number[16];
    int len = 0;
    unsigned v = nr < 0 ? 0u : static_cast<unsigned>(nr);
    do {
      number[len++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v && len < 15);
    char digits[16];
    for (int i = 0; i < len; ++i) digits[i] = number[len - 1 - i];
    digits[len] = '\0';
    const char* name = nr >= 0 && nr < kMaxSyscall && g_names[nr] ? g_names[nr] : digits;
    // rt_sigaction only traps when it targets SIGSYS; mprotect says where it aimed.
    const bool sigsys = nr == SYS_rt_sigaction;
    char where[32] = "";
#if defined(__x86_64__)
    if (nr == SYS_mprotect || nr == SYS_pkey_mprotect) {
      auto address = static_cast<unsigned long long>(static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_RDI]);
      std::size_t at = 0;
      append(where, &at, sizeof where - 1, "(0x");
      char hex[17];
      int n = 0;
      do {
        hex[n++] = "0123456789abcdef"[address & 0xf];
        address >>= 4;
      } while (address && n < 16);
      while (n > 0 && at < sizeof where - 2) where[at++] = hex[--n];
      append(where, &at, sizeof where - 1, ")");
      where[at] = '\0';
    }
#else
    (void)context;
#endif
    write_violation(name, sigsys ? "(SIGSYS)" : where);
  }
  ::_exit(86);
}

// [begin, end) as the fewest aligned power-of-two blocks {base, size}: each is one masked compare.
std::vector<std::pair<std::uintptr_t, std::uintptr_t>> aligned_blocks(std::uintptr_t begin, std::uintptr_t end) {
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> blocks;
  while (begin < end) {
    std::uintptr_t size = begin ? (begin & (~begin + 1)) : (std::uintptr_t{1} << 62);  // the alignment of begin
    while (size > end - begin) size >>= 1;
    blocks.emplace_back(begin, size);
    begin += size;
  }
  return blocks;
}

// The address range of the worker executable's own image (its text, its read-only relocations and
// GOT), from /proc/self/maps; {0, 0} when it cannot be read.
std::pair<std::uintptr_t, std::uintptr_t> executable_image() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  std::ifstream maps("/proc/self/maps");
  std::uintptr_t begin = 0, end = 0;
  std::string line;
  while (!ec && std::getline(maps, line)) {
    const auto slash = line.find('/');
    if (slash == std::string::npos || line.substr(slash) != exe.string()) continue;
    const auto dash = line.find('-');
    const std::uintptr_t b = std::stoull(line.substr(0, dash), nullptr, 16);
    const std::uintptr_t e = std::stoull(line.substr(dash + 1, line.find(' ') - dash - 1), nullptr, 16);
    if (!begin || b < begin) begin = b;
    if (e > end) end = e;
  }
  return {begin, end};
}

// The kernel's Landlock ABI (stable), spelled here because distribution headers lag the kernel:
// Debian 12's linux-libc-dev (6.1) stops at ABI 2 and knows neither truncate, TCP nor scopes.
struct LandlockRulesetAttr {
  std::uint64_t handled_access_fs;
  std::uint64_t handled_access_net;  // ABI 4
  std::uint64_t scoped;              // ABI 6
};
constexpr std::uint64_t kFsTruncate = 1ULL << 14;        // ABI 3
constexpr std::uint64_t kNetBindTcp = 1ULL << 0;         // ABI 4
constexpr std::uint64_t kNetConnectTcp = 1ULL << 1;      // ABI 4
constexpr std::uint64_t kScopeAbstractUnix = 1ULL << 0;  // ABI 6
constexpr std::uint64_t kScopeSignal = 1ULL << 1;        // ABI 6

int landlock_abi() {
  const long abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
  return abi < 0 ? 0 : static_cast<int>(abi);
}

std::uint64_t handled_fs_rights(int abi) {
  std::uint64_t rights = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |
                         LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR |
                         LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO |
                         LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM;
  if (abi >= 2) rights |= LANDLOCK_ACCESS_FS_REFER;
  if (abi >= 3) rights |= kFsTruncate;
  // Reads stay open (Python, torch and the candidate's own files) and so do device ioctls (CUDA).
  return rights;
}

Status allow_path(int ruleset, const std::filesystem::path& path, std::uint64_t rights) {
  const int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
  if (fd < 0) return Error{"landlock: cannot open " + path.string() + ": " + std::strerror(errno)};
  landlock_path_beneath_attr rule{};
  rule.allowed_access = rights;
  rule.parent_fd = fd;
  const long rc = ::syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
  const int err = errno;
  ::close(fd);
  if (rc != 0) return Error{"landlock_add_rule " + path.string() + ": " + std::strerror(err)};
  return Status::ok();
}

}  // namespace

void set_violation_channel(int control_fd) { g_control_fd = control_fd; }

void report_violation_and_exit(const char* what, const char* detail) {
  if (!g_reported.exchange(true)) write_violation(what, detail);
  ::_exit(86);
}

nlohmann::json to_json(const SandboxState& s) {
  return {{"seccomp", s.seccomp}, {"landlock_abi", s.landlock_abi}, {"mode", s.mode}, {"jit_exec", s.jit_exec}};
}

std::vector<std::filesystem::path> jit_toolchain_executables() {
  std::vector<std::filesystem::path> found;
  const auto add = [&](const std::filesystem::path& path) {
    std::error_code ec;
    auto real = std::filesystem::canonical(path, ec);
    if (!ec) found.push_back(real);
  };
  for (const char* dir : {"/usr/bin", "/bin", "/usr/local/bin"})
    for (const char* tool : {"cc", "gcc", "c++", "g++", "as", "ld", "ld.bfd"}) add(std::filesystem::path(dir) / tool);
  add("/usr/lib/gcc");      // cc1, collect2, lto-wrapper (Debian)
  add("/usr/libexec/gcc");  // the same on Ubuntu (the GPU machine): Triton compiles its launcher with gcc
  add("/lib64/ld-linux-x86-64.so.2");
  add(std::filesystem::path(KGATE_PYTHON_SITE) / "triton" / "backends" / "nvidia" / "bin");  // ptxas
  return found;
}

SandboxState sandbox_state_from_json(const nlohmann::json& j) {
  SandboxState s;
  s.seccomp = j.value("seccomp", false);
  s.landlock_abi = j.value("landlock_abi", 0);
  s.mode = j.value("mode", std::string("none"));
  s.jit_exec = j.value("jit_exec", false);
  return s;
}

Status apply_limits(const WorkerLimits& limits) {
  const auto set = [](int resource, rlim_t value, const char* name) -> Status {
    rlimit current{};
    ::getrlimit(resource, &current);
    rlimit wanted{value, value};
    if (current.rlim_max != RLIM_INFINITY && current.rlim_max < value) wanted = {current.rlim_max, current.rlim_max};
    if (::setrlimit(resource, &wanted) != 0)
      return Error{std::string("setrlimit ") + name + ": " + std::strerror(errno)};
    return Status::ok();
  };
  if (auto s = set(RLIMIT_CORE, 0, "CORE"); !s) return s;
  if (auto s = set(RLIMIT_CPU, limits.cpu_seconds, "CPU"); !s) return s;
  if (auto s = set(RLIMIT_FSIZE, limits.file_bytes, "FSIZE"); !s) return s;
  if (limits.processes)
    if (auto s = set(RLIMIT_NPROC, limits.processes, "NPROC"); !s) return s;
  if (limits.address_space)
    if (auto s = set(RLIMIT_AS, limits.address_space, "AS"); !s) return s;
  return Status::ok();
}

Result<int> restrict_filesystem(const std::filesystem::path& private_dir, const SandboxExtras& extras) {
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return Error{std::string("no_new_privs: ") + std::strerror(errno)};
  const int abi = landlock_abi();
  if (abi == 0) return 0;
  LandlockRulesetAttr attr{};
  attr.handled_access_fs = handled_fs_rights(abi);
  std::size_t attr_size = offsetof(LandlockRulesetAttr, handled_access_net);
  if (abi >= 4) {
    attr.handled_access_net = kNetBindTcp | kNetConnectTcp;
    attr_size = offsetof(LandlockRulesetAttr, scoped);
  }
  if (abi >= 6) {
    attr.scoped = kScopeAbstractUnix | kScopeSignal;
    attr_size = sizeof attr;
  }
  const int ruleset = static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attr, attr_size, 0));
  if (ruleset < 0) return Error{std::string("landlock_create_ruleset: ") + std::strerror(errno)};
  const std::uint64_t in_private = handled_fs_rights(abi) & ~static_cast<std::uint64_t>(LANDLOCK_ACCESS_FS_EXECUTE);
  Status status = allow_path(ruleset, private_dir, in_private);
  // Character devices the runtime writes: /dev/null, and the NVIDIA nodes CUDA opens read-write.
  std::vector<std::filesystem::path> devices{"/dev/null"};
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/dev", ec))
    if (entry.path().filename().string().rfind("nvidia", 0) == 0 && entry.is_character_file(ec))
      devices.push_back(entry.path());
  for (const auto& device : devices)
    if (status) status = allow_path(ruleset, device, LANDLOCK_ACCESS_FS_WRITE_FILE);
  // CUDA: the driver opens more than the /dev/nvidia* nodes read-write (nvidia-caps/, dri/), and torch's
  // IPC reference counts live in /dev/shm. /proc (and so /proc/*/mem) stays read-only.
  if (status && extras.dev_shm_writable) status = allow_path(ruleset, "/dev", LANDLOCK_ACCESS_FS_WRITE_FILE);
  // The CUDA driver creates (and removes) its own files in /dev/shm at initialisation: without the
  // right to make regular files there, cudaGetDeviceCount fails with error 304 (seen on an H100).
  if (status && extras.dev_shm_writable && std::filesystem::is_directory("/dev/shm", ec))
    status = allow_path(ruleset, "/dev/shm", in_private);
  if (extras.jit_exec)
    for (const auto& tool : jit_toolchain_executables())
      if (status) status = allow_path(ruleset, tool, LANDLOCK_ACCESS_FS_EXECUTE);
  if (status && ::syscall(SYS_landlock_restrict_self, ruleset, 0) != 0)
    status = Error{std::string("landlock_restrict_self: ") + std::strerror(errno)};
  ::close(ruleset);
  if (!status) return Error{status.message()};
  return abi;
}

Status install_syscall_filter(int control_fd, bool allow_exec) {
  g_control_fd = control_fd;
  struct sigaction action{};
  action.sa_sigaction = on_sigsys;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  if (::sigaction(SIGSYS, &action, nullptr) != 0)
    return Error{std::string("sigaction SIGSYS: ") + std::strerror(errno)};
  sigset_t sigsys;
  sigemptyset(&sigsys);
  sigaddset(&sigsys, SIGSYS);
  pthread_sigmask(SIG_UNBLOCK, &sigsys, nullptr);

  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (!ctx) return Error{"seccomp_init failed"};
  int rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1);
  const auto trap = [&](const char* name) {
    const int nr = seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR) return 0;  // not on this architecture
    if (nr >= 0 && nr < kMaxSyscall) g_names[nr] = name;
    return seccomp_rule_add(ctx, SCMP_ACT_TRAP, nr, 0);
  };
  for (const char* name : kTrapped)
    if (rc == 0) rc = trap(name);
  if (!allow_exec)
    for (const char* name : kProcessStarters)
      if (rc == 0) rc = trap(name);
  // New processes: clone without CLONE_THREAD traps; clone3 hides its flags from BPF, so it reports
  // ENOSYS and glibc falls back to clone for threads.
  if (rc == 0 && !allow_exec) {
    g_names[SYS_clone] = "clone";
    rc = seccomp_rule_add(ctx, SCMP_ACT_TRAP, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0));
  }
  if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
  // The worker's own image is final: making its pages writable again (a GOT overwrite of the CUDA timing
  // calls, T6) traps. The trapped window is the image and the 2 MiB below it (an mprotect that starts
  // lower must cover the unmapped gap below a PIE image, and fails). The filter is inherited by what a
  // CUDA worker executes (Triton's gcc, as, ld are PIE too): a wider window would now and then trap
  // their own start-up in a child. BPF compares an argument once per rule, so the window is cut into
  // aligned power-of-two blocks, one masked compare each.
  if (rc == 0) {
    const auto [image_begin, image_end] = executable_image();
    if (image_end > image_begin) {
      const std::uintptr_t below = std::uintptr_t{2} << 20;
      for (const auto& [nr, name] :
           {std::pair{SYS_mprotect, "mprotect"}, std::pair{SYS_pkey_mprotect, "pkey_mprotect"}}) {
        g_names[nr] = name;
        for (const auto& [base, size] : aligned_blocks(image_begin > below ? image_begin - below : 0, image_end))
          if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_TRAP, nr, 1, SCMP_A0(SCMP_CMP_MASKED_EQ, ~(size - 1), base));
      }
    }
  }
  // The SIGSYS handler is final: re-registering it would let Python code swallow violations. Where the
  // worker may execute the JIT toolchain, the attempt fails with EPERM instead of trapping: the filter is
  // inherited across exec, and ptxas installs handlers for every signal at start-up (trapped, it died of
  // SIGSYS in the child and Triton reported "Cannot find ptxas").
  if (rc == 0) {
    g_names[SYS_rt_sigaction] = "rt_sigaction";
    rc = seccomp_rule_add(ctx, allow_exec ? SCMP_ACT_ERRNO(EPERM) : SCMP_ACT_TRAP, SCMP_SYS(rt_sigaction), 2,
                          SCMP_A0(SCMP_CMP_EQ, SIGSYS), SCMP_A1(SCMP_CMP_NE, 0));  // queries (act == NULL) stay allowed
  }
  if (rc == 0) rc = seccomp_load(ctx);
  seccomp_release(ctx);
  if (rc != 0) return Error{std::string("seccomp: ") + std::strerror(-rc)};
  return Status::ok();
}

}  // namespace kgate::runtime
