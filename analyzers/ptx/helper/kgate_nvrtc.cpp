// kgate-nvrtc: the PTX witness's compiler process. NVRTC is NVIDIA's closed compiler, and some sources
// crash it (a fuzzed extension source made it segfault); run in the analysing process, that crash was
// kgate's. So the witness (nvrtc_child.h) starts this helper and hands it each compilation over its
// stdin/stdout (one socket; nvrtc_protocol.h), and a crash here ends only the helper: the witness notes
// it and starts another for the next source. Requests are answered one at a time until stdin closes.
#include <dlfcn.h>
#include <nvrtc.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <iterator>
#include <string>
#include <type_traits>
#include <vector>

#include "analyzers/ptx/nvrtc_protocol.h"

namespace {

// The functions of NVRTC this helper calls, loaded from the library the build found (an absolute path:
// an installed helper needs no rpath or LD_LIBRARY_PATH to find the toolkit).
struct Nvrtc {
  decltype(&nvrtcCreateProgram) create = nullptr;
  decltype(&nvrtcAddNameExpression) add_name = nullptr;
  decltype(&nvrtcCompileProgram) compile = nullptr;
  decltype(&nvrtcGetProgramLogSize) log_size = nullptr;
  decltype(&nvrtcGetProgramLog) log = nullptr;
  decltype(&nvrtcGetPTXSize) ptx_size = nullptr;
  decltype(&nvrtcGetPTX) ptx = nullptr;
  decltype(&nvrtcDestroyProgram) destroy = nullptr;
};

// Loads NVRTC into `api`; the reason it could not, or empty.
std::string load(Nvrtc& api) {
  void* library = ::dlopen(KGATE_NVRTC_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* text = ::dlerror();
    return std::string("NVRTC could not be loaded (") + (text ? text : KGATE_NVRTC_LIBRARY) + ")";
  }
  std::string error;
  const auto bind = [&](auto& slot, const char* name) {
    slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(::dlsym(library, name));
    if (!slot && error.empty()) error = std::string("NVRTC has no ") + name;
  };
  bind(api.create, "nvrtcCreateProgram");
  bind(api.add_name, "nvrtcAddNameExpression");
  bind(api.compile, "nvrtcCompileProgram");
  bind(api.log_size, "nvrtcGetProgramLogSize");
  bind(api.log, "nvrtcGetProgramLog");
  bind(api.ptx_size, "nvrtcGetPTXSize");
  bind(api.ptx, "nvrtcGetPTX");
  bind(api.destroy, "nvrtcDestroyProgram");
  return error;
}

// The first error line of NVRTC's log, for the note.
std::string first_error(const std::string& log) {
  const size_t at = log.find("error");
  if (at == std::string::npos) return log.substr(0, 200);
  const size_t begin = log.rfind('\n', at);
  const size_t end = log.find('\n', at);
  return log.substr(begin == std::string::npos ? 0 : begin + 1, std::min<size_t>(end - (begin + 1), 240));
}

// One compilation: [prelude, device text, name expressions...] to ["ok", PTX] or ["failed", why].
std::vector<std::string> compile(const Nvrtc& api, const std::vector<std::string>& request) {
  const std::string& prelude = request[0];
  const std::string& text = request[1];
  nvrtcProgram program = nullptr;
  const char* headers[] = {prelude.c_str()};
  const char* names[] = {"kgate_ptx_prelude.h"};
  if (api.create(&program, text.c_str(), "submission.cu", 1, headers, names) != NVRTC_SUCCESS)
    return {"failed", "NVRTC could not create a program"};
  for (size_t i = 2; i < request.size(); ++i) api.add_name(program, request[i].c_str());
  // CUDA 13 keeps CCCL (cuda/std, cub) in include/cccl; earlier toolkits in include itself.
  const std::string include = std::string("--include-path=") + KGATE_CUDA_INCLUDE_DIR;
  const std::string cccl = std::string("--include-path=") + KGATE_CUDA_INCLUDE_DIR + "/cccl";
  const char* options[] = {"--gpu-architecture=compute_90a",
                           "--std=c++17",
                           "--relocatable-device-code=true",
                           "--disable-warnings",
                           "--pre-include=kgate_ptx_prelude.h",
                           include.c_str(),
                           cccl.c_str()};
  const nvrtcResult result = api.compile(program, static_cast<int>(std::size(options)), options);
  size_t size = 0;
  std::vector<std::string> answer;
  if (result != NVRTC_SUCCESS) {
    api.log_size(program, &size);
    std::string log(size, '\0');
    if (size) api.log(program, log.data());
    answer = {"failed", "NVRTC could not compile its device code (" + first_error(log) + ")"};
  } else {
    api.ptx_size(program, &size);
    std::string ptx(size, '\0');
    api.ptx(program, ptx.data());
    while (!ptx.empty() && ptx.back() == '\0') ptx.pop_back();
    answer = {"ok", std::move(ptx)};
  }
  api.destroy(&program);
  return answer;
}

long long cpu_ms() {
  timespec ts{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<long long>(ts.tv_sec) * 1000 + ts.tv_nsec / 1'000'000;
}

}  // namespace

int main() {
  Nvrtc api;
  const std::string unavailable = load(api);
  std::vector<std::string> request;
  while (kgate::ptx::protocol::read_message(STDIN_FILENO, request)) {
    const long long start = cpu_ms();
    std::vector<std::string> answer;
    if (request.size() < 2)
      answer = {"failed", "kgate-nvrtc received a request without a source"};
    else if (!unavailable.empty())
      answer = {"failed", unavailable};
    else
      answer = compile(api, request);
    answer.push_back(std::to_string(cpu_ms() - start));
    if (!kgate::ptx::protocol::write_message(STDOUT_FILENO, answer)) return 1;
  }
  return 0;
}
