// scan_ptx(): the kernels of a PTX module and what their instructions show (ptx_scan.h).
#include "analyzers/ptx/ptx_scan.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <regex>
#include <set>
#include <string>

namespace kgate::ptx {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

bool is_type(std::string_view t) {
  static const std::set<std::string_view> types = {
      "f16",  "f16x2",  "bf16", "bf16x2", "tf32",   "f32",    "f64",     "e4m3", "e5m2", "e4m3x2", "e5m2x2",
      "e2m1", "e2m1x2", "e3m2", "e2m3",   "e3m2x2", "e2m3x2", "ue8m0x2", "s32",  "u32",  "s8",     "u8",
      "s4",   "u4",     "b1",   "s16",    "u16",    "s64",    "u64",     "b16",  "b32",  "b64",    "pred"};
  return types.count(t) > 0;
}

// The destination state space of a cp.* / st-like opcode: the first of global, shared, local, param,
// const among its components (a `shared::cta` component counts as shared); "" for generic addressing.
std::string_view first_space(const std::vector<std::string_view>& parts) {
  for (auto p : parts) {
    const auto base = p.substr(0, p.find("::"));
    if (base == "global" || base == "shared" || base == "local" || base == "param" || base == "const") return base;
  }
  return {};
}

bool writes_global(const std::vector<std::string_view>& op) {
  const std::string_view head = op[0];
  const std::string_view space = first_space(op);
  if (head == "st" || head == "atom" || head == "red" || head == "wmma" || head == "sust" || head == "sured") {
    if (head == "wmma" && (op.size() < 2 || op[1] != "store")) return false;
    return space.empty() || space == "global";
  }
  if (head == "cp") return space == "global";  // cp.async.bulk[.tensor].global.shared, cp.reduce.async.bulk...global
  if (head == "multimem") return op.size() > 1 && (op[1] == "st" || op[1] == "red");
  return false;
}

// The accumulator type of an MMA opcode: the first type component (D comes first in PTX's order).
std::string mma_accumulator(const std::vector<std::string_view>& op) {
  const bool mma = op[0] == "mma" || (op[0] == "wmma" && op.size() > 1 && op[1] == "mma") ||
                   (op[0] == "wgmma" && op.size() > 1 && op[1] == "mma_async");
  if (!mma) return {};
  for (auto p : op)
    if (is_type(p)) return std::string(p);
  return {};
}

// cvt.rn.f16.f32 -> "f16": a 32-bit float converted to a narrower floating type.
std::string narrowing(const std::vector<std::string_view>& op) {
  if (op[0] != "cvt") return {};
  std::vector<std::string_view> types;
  for (auto p : op)
    if (is_type(p)) types.push_back(p);
  if (types.size() < 2 || types.back() != "f32") return {};
  std::string to(types[types.size() - 2]);
  if (to.size() > 2 && to.compare(to.size() - 2, 2, "x2") == 0) to.resize(to.size() - 2);
  static const std::set<std::string> narrow = {"f16", "bf16", "tf32", "e4m3", "e5m2", "e2m1", "e3m2", "e2m3"};
  return narrow.count(to) ? to : std::string();
}

const std::set<std::string>& cuda_runtime_functions() {
  static const std::set<std::string> names = {"vprintf",
                                              "__assertfail",
                                              "malloc",
                                              "free",
                                              "cudaGetParameterBuffer",
                                              "cudaGetParameterBufferV2",
                                              "cudaLaunchDevice",
                                              "cudaLaunchDeviceV2",
                                              "cudaDeviceSynchronize",
                                              "cudaGetDevice",
                                              "cudaStreamCreateWithFlags",
                                              "cudaStreamDestroy"};
  return names;
}

void add_unique(std::vector<std::string>& list, std::string value) {
  if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(std::move(value));
}

}  // namespace

std::string source_name(std::string_view symbol) {
  std::string name(symbol);
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status),
                                                   std::free);
  if (status != 0 || !demangled) return name;
  std::string_view d(demangled.get());
  // The name ends at the parameter list's '(' outside template arguments.
  int depth = 0;
  size_t paren = d.size();
  for (size_t i = 0; i < d.size(); ++i) {
    if (d[i] == '<') ++depth;
    if (d[i] == '>') --depth;
    if (d[i] == '(' && depth == 0) {
      paren = i;
      break;
    }
  }
  std::string_view head = d.substr(0, paren);
  // A template's demangled name starts with its return type: the name is the last word outside <>.
  depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < head.size(); ++i) {
    if (head[i] == '<') ++depth;
    if (head[i] == '>') --depth;
    if (head[i] == ' ' && depth == 0) start = i + 1;
  }
  head = head.substr(start);
  if (!head.empty() && head.back() == '>') {
    depth = 0;
    for (size_t i = head.size(); i-- > 0;) {
      if (head[i] == '>') ++depth;
      if (head[i] == '<' && --depth == 0) {
        head = head.substr(0, i);
        break;
      }
    }
  }
  return std::string(head);
}

std::vector<PtxKernel> scan_ptx(std::string_view ptx) {
  std::vector<PtxKernel> kernels;
  std::set<std::string> externs;
  static const std::regex extern_func(R"(\.extern\s+\.func\s*(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*))");
  for (auto it = std::cregex_iterator(ptx.data(), ptx.data() + ptx.size(), extern_func); it != std::cregex_iterator();
       ++it)
    externs.insert((*it)[1].str());
  static const std::regex call(R"(^call(?:\.uni)?\s+(?:\([^)]*\)\s*,\s*)?([A-Za-z_$][\w$]*))");

  size_t at = 0;
  while ((at = ptx.find(".entry ", at)) != std::string_view::npos) {
    at += 7;
    const size_t name_end = ptx.find_first_of("( \t\n", at);
    if (name_end == std::string_view::npos) break;
    PtxKernel kernel;
    kernel.symbol = std::string(trim(ptx.substr(at, name_end - at)));
    kernel.name = source_name(kernel.symbol);
    // The body: from the first '{' after the parameter list to its matching '}'.
    const size_t params_end = ptx.find(')', name_end);
    const size_t open = params_end == std::string_view::npos ? params_end : ptx.find('{', params_end);
    if (open == std::string_view::npos) break;
    int depth = 0;
    size_t close = open;
    for (; close < ptx.size(); ++close) {
      if (ptx[close] == '{') ++depth;
      if (ptx[close] == '}' && --depth == 0) break;
    }
    const std::vector<std::string_view> lines = split(ptx.substr(open + 1, close - open - 1), '\n');
    for (size_t li = 0; li < lines.size(); ++li) {
      std::string_view line = trim(lines[li]);
      // Inline asm arrives in braces on one line: `{ cvt.rn.f16.f32 %rs1, %f1;}`.
      while (!line.empty() && (line.front() == '{' || line.front() == '}')) line = trim(line.substr(1));
      if (line.empty() || line[0] == '.' || line[0] == '/' || line[0] == '$') continue;
      if (line[0] == '@') {  // a predicate: @%p1 or @!%p1
        const size_t space = line.find_first_of(" \t");
        if (space == std::string_view::npos) continue;
        line = trim(line.substr(space));
      }
      const size_t end = line.find_first_of(" \t;");
      const std::vector<std::string_view> op = split(line.substr(0, end), '.');
      if (op.empty() || op[0].empty()) continue;
      if (writes_global(op)) kernel.stores = true;
      if (std::string acc = mma_accumulator(op); !acc.empty()) add_unique(kernel.mma_accumulators, acc);
      if (std::string to = narrowing(op); !to.empty()) add_unique(kernel.narrowing_conversions, to);
      if (op[0] == "call") {
        // A call spans lines up to its ';' (`call.uni (retval0),` / `_Z3fooi,` / `(param0);`).
        std::string text(line);
        while (text.find(';') == std::string::npos && li + 1 < lines.size())
          text += " " + std::string(trim(lines[++li]));
        std::cmatch m;
        if (std::regex_search(text.c_str(), m, call)) {
          const std::string callee = m[1].str();
          if (cuda_runtime_functions().count(callee)) continue;
          if (externs.count(callee))
            add_unique(kernel.external_calls, source_name(callee));
          else
            add_unique(kernel.calls, source_name(callee));
        }
      }
    }
    kernels.push_back(std::move(kernel));
    at = close;
  }
  return kernels;
}

}  // namespace kgate::ptx
