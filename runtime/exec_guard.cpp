// The exec audit hook of CUDA workers.
#include "runtime/exec_guard.h"

#include <Python.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "runtime/sandbox.h"

namespace kgate::runtime {
namespace {

// Before the candidate is imported, a refused exec raises PermissionError in the caller (what Landlock
// alone would give: torch's and Triton's own start-up probes, such as platform's `file`, cope with it);
// once armed, it is the candidate's and ends the worker with a violation.
bool g_armed = false;

std::vector<std::filesystem::path>& allowed_programs() {
  static std::vector<std::filesystem::path> allowed;
  return allowed;
}

bool under(const std::filesystem::path& path, const std::filesystem::path& root) {
  auto p = path.begin();
  for (auto r = root.begin(); r != root.end(); ++r, ++p)
    if (p == path.end() || *p != *r) return false;
  return true;
}

// The program a subprocess.Popen / os.exec* / os.posix_spawn event names, as text.
std::string program_of(const char* event, PyObject* args) {
  if (!args || !PyTuple_Check(args) || PyTuple_GET_SIZE(args) < 1) return {};
  PyObject* first = PyTuple_GET_ITEM(args, 0);
  // subprocess.Popen's executable may be None: then the program is args[0].
  if (std::strcmp(event, "subprocess.Popen") == 0 && first == Py_None && PyTuple_GET_SIZE(args) > 1) {
    PyObject* argv = PyTuple_GET_ITEM(args, 1);
    if (PyList_Check(argv) && PyList_GET_SIZE(argv) > 0)
      first = PyList_GET_ITEM(argv, 0);
    else if (PyTuple_Check(argv) && PyTuple_GET_SIZE(argv) > 0)
      first = PyTuple_GET_ITEM(argv, 0);
    else
      first = argv;  // a string command
  }
  PyObject* bytes = nullptr;
  if (PyUnicode_Check(first) || PyBytes_Check(first) || PyObject_HasAttrString(first, "__fspath__")) {
    if (!PyUnicode_FSConverter(first, static_cast<void*>(&bytes))) {
      PyErr_Clear();
      return {};
    }
  }
  if (!bytes) return {};
  std::string out(PyBytes_AS_STRING(bytes), static_cast<std::size_t>(PyBytes_GET_SIZE(bytes)));
  Py_DECREF(bytes);
  return out;
}

int refuse(const char* syscall, const std::string& program) {
  static char detail[256];  // static: the exit below never returns
  std::snprintf(detail, sizeof detail, " (%.240s)", program.c_str());
  if (g_armed) report_violation_and_exit(syscall, detail);
  PyErr_Format(PyExc_PermissionError, "kgate sandbox: %s%s is not allowed in the worker", syscall, detail);
  return -1;
}

int audit_hook(const char* event, PyObject* args, void*) {
  const bool exec_event = std::strcmp(event, "subprocess.Popen") == 0 || std::strcmp(event, "os.exec") == 0 ||
                          std::strcmp(event, "os.posix_spawn") == 0 || std::strcmp(event, "os.spawn") == 0;
  if (std::strcmp(event, "os.system") == 0) return refuse("execve", "os.system");
  if (std::strcmp(event, "os.fork") == 0 || std::strcmp(event, "os.forkpty") == 0) return refuse("fork", event);
  if (!exec_event) return 0;
  const char* path = std::getenv("PATH");
  const std::string program = program_of(event, args);
  if (!exec_allowed(program, path ? path : "", allowed_programs())) return refuse("execve", program);
  return 0;
}

}  // namespace

bool exec_allowed(const std::string& program, const std::string& path_env,
                  const std::vector<std::filesystem::path>& allowed) {
  if (program.empty()) return false;
  std::vector<std::filesystem::path> candidates;
  if (program.find('/') != std::string::npos) {
    candidates.emplace_back(program);
  } else {
    std::stringstream dirs(path_env);
    std::string dir;
    while (std::getline(dirs, dir, ':'))
      if (!dir.empty()) candidates.push_back(std::filesystem::path(dir) / program);
  }
  for (const auto& candidate : candidates) {
    std::error_code ec;
    const auto real = std::filesystem::canonical(std::filesystem::absolute(candidate, ec), ec);
    if (ec) continue;
    for (const auto& root : allowed)
      if (real == root || under(real, root)) return true;
    return false;  // the first program found on PATH is the one exec would run
  }
  return false;
}

void arm_exec_guard() { g_armed = true; }

void install_exec_guard(std::vector<std::filesystem::path> allowed) {
  allowed_programs() = std::move(allowed);
  PySys_AddAuditHook(audit_hook, nullptr);
}

}  // namespace kgate::runtime
