// The outcome of a runtime run: one verdict per case and per submission, with the reasons behind it.
#pragma once

#include <string>
#include <string_view>

namespace kgate::runtime {

// Ordered from best to worst outcome of a case; a submission's verdict is its worst case's.
// harness_error: a limit or failure of the harness (the arena, GPU memory the reference needs), never
// a verdict on the submission; `kgate run` exits 3 on it.
enum class Verdict { pass, fail, crashed, timeout, sandbox_violation, harness_error, error };

constexpr std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::pass:
      return "pass";
    case Verdict::fail:
      return "fail";
    case Verdict::crashed:
      return "crashed";
    case Verdict::timeout:
      return "timeout";
    case Verdict::sandbox_violation:
      return "sandbox-violation";
    case Verdict::harness_error:
      return "harness-error";
    case Verdict::error:
      return "error";
  }
  return "error";
}

// Why a case did not pass. id is one of the stable reason ids (docs/runtime.md lists them: mismatch,
// input-mutated, output-aliases-input, crashed, timeout, sandbox-violation, ...); message is for people.
struct Reason {
  std::string id;
  std::string message;
};

}  // namespace kgate::runtime
