// kgate-worker: the sandboxed process the judge starts for each submission (argument parsing only).
#include <CLI/CLI.hpp>

#include "runtime/worker.h"

int main(int argc, char** argv) {
  kgate::runtime::WorkerOptions options;
  bool no_sandbox = false;
  CLI::App app{"kgate-worker: runs one submission for the kgate judge (started by `kgate run`, not by hand)"};
  app.add_option("--control-in", options.control_in, "descriptor of judge -> worker messages");
  app.add_option("--control-out", options.control_out, "descriptor of worker -> judge messages");
  app.add_option("--arena-fd", options.arena_fd, "descriptor of the memfd arena");
  app.add_option("--arena-bytes", options.arena_bytes, "size of the arena");
  app.add_option("--private-dir", options.private_dir, "the only directory the worker may write")->required();
  app.add_option("--device", options.device, "cpu or cuda");
  app.add_option("--cpu-seconds", options.limits.cpu_seconds, "RLIMIT_CPU");
  app.add_option("--address-space", options.limits.address_space, "RLIMIT_AS in bytes (0: unlimited)");
  app.add_flag("--no-sandbox", no_sandbox, "skip Landlock and seccomp (debugging only)");
  CLI11_PARSE(app, argc, argv);
  options.sandbox = !no_sandbox;
  return kgate::runtime::run_worker(options);
}
