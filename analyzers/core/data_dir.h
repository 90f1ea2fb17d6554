// Where KernelGate's data lives: the rules (with harnesses/ and policies/), the tasks, and the CUDA
// shim headers of the Clang engine. An installed KernelGate (`pip install .`, `cmake --install`) keeps
// them under <prefix>/share/kgate/{rules,tasks,shims}; a build tree uses the source tree it was built
// from. This is the one place that knows either layout; every default path is read from here.
#pragma once

#include <filesystem>
#include <optional>

namespace kgate {

// Adds an install prefix to look under after the running executable's own (<exe>/..). The Python
// module adds sys.prefix and the user base at import: its process is python, not kgate.
void add_install_prefix(const std::filesystem::path& prefix);

// <prefix>/share/kgate of the first prefix whose rules/ exists; nullopt when running from a build tree.
std::optional<std::filesystem::path> installed_data_dir();

// KGATE_RULES_DIR, else the installed rules, else the source tree's rules/.
std::filesystem::path default_rules_dir();

// The shim headers of the Clang engine: the installed ones, else the source tree's analyzers/cuda/shims.
std::filesystem::path default_shim_dir();

// A program of KernelGate's (kgate-nvrtc): beside the running executable, else in an install prefix's
// bin/ (the Python module's process is python), else where this build tree puts it (<build>/tools).
std::filesystem::path companion_program(const char* name);

}  // namespace kgate
