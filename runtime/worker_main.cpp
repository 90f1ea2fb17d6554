// kgate-worker: the sandboxed process the judge starts for each submission (argument parsing only).
#include <dlfcn.h>

#include <cstdio>
#include <cstring>

#include <CLI/CLI.hpp>

#include "runtime/worker.h"

// CUDA's driver names its helper threads by fopen("/proc/self/task/<tid>/comm", "wb") and fails its
// initialisation (cudaGetDeviceCount: error 304) when that open is refused. Landlock cannot allow it
// without allowing /proc/self/task/<tid>/mem beside it, so the worker executable interposes fopen (it
// is exported, so libcuda binds to it) and hands such opens /dev/null: the thread keeps its name.
namespace {

bool is_thread_name_write(const char* path, const char* mode) {
  if (!path || !mode || !std::strpbrk(mode, "wa+")) return false;
  constexpr const char kPrefix[] = "/proc/self/task/";
  if (std::strncmp(path, kPrefix, sizeof kPrefix - 1) != 0) return false;
  const char* p = path + sizeof kPrefix - 1;
  if (*p < '0' || *p > '9') return false;
  while (*p >= '0' && *p <= '9') ++p;
  return std::strcmp(p, "/comm") == 0;
}

using FopenFn = FILE* (*)(const char*, const char*);

FILE* forward(const char* symbol, const char* path, const char* mode) {
  auto real = reinterpret_cast<FopenFn>(::dlsym(RTLD_NEXT, symbol));
  if (!real) return nullptr;
  return real(is_thread_name_write(path, mode) ? "/dev/null" : path, mode);
}

}  // namespace

extern "C" FILE* fopen(const char* path, const char* mode) { return forward("fopen", path, mode); }
extern "C" FILE* fopen64(const char* path, const char* mode) { return forward("fopen64", path, mode); }

int main(int argc, char** argv) {
  kgate::runtime::WorkerOptions options;
  bool no_sandbox = false;
  CLI::App app{"kgate-worker: runs one submission for the kgate judge (started by `kgate run`, not by hand)"};
  app.add_option("--control-in", options.control_in, "descriptor of judge -> worker messages");
  app.add_option("--control-out", options.control_out, "descriptor of worker -> judge messages");
  app.add_option("--arena-fd", options.arena_fd, "descriptor of the memfd arena");
  app.add_option("--private-dir", options.private_dir, "the only directory the worker may write")->required();
  app.add_option("--device", options.device, "cpu or cuda");
  app.add_option("--cpu-seconds", options.limits.cpu_seconds, "RLIMIT_CPU");
  app.add_option("--address-space", options.limits.address_space, "RLIMIT_AS in bytes (0: unlimited)");
  app.add_flag("--no-sandbox", no_sandbox, "skip Landlock and seccomp (debugging only)");
  CLI11_PARSE(app, argc, argv);
  options.sandbox = !no_sandbox;
  return kgate::runtime::run_worker(options);
}
