// The compile cache of load_inline/load requests from workers: the judge compiles outside the sandbox
// (a child process running the torch Python) into <cache>/<sha256 of request + toolchain>/ and hands
// the worker the .so path. A warm request is a hash and two stat calls.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "analyzers/core/status.h"

namespace kgate::runtime {

struct CompileRecord {
  std::string name;
  std::string key;  // sha256 hex
  bool hit = false;
  double milliseconds = 0;
  std::string error;  // empty when it built
};

// $KGATE_CACHE_DIR, else $XDG_CACHE_HOME/kgate/compile, else ~/.cache/kgate/compile.
std::filesystem::path default_compile_cache_dir();

class CompileCache {
 public:
  explicit CompileCache(std::filesystem::path dir) : dir_(std::move(dir)) {}

  // request: what kgate_worker.py sends (kind, name, sources, flags). Needs the judge's embedded Python.
  // Returns the extension's path; record says hit/miss, time and the key.
  Result<std::filesystem::path> build(const nlohmann::json& request, CompileRecord* record);

 private:
  std::filesystem::path dir_;
  std::string toolchain_;  // nvcc, host compiler, torch and Python versions; computed on first use
};

}  // namespace kgate::runtime
