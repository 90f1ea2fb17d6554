// kgate._core, the compiled half of the `kgate` Python package (tools/python/kgate): the static gate in process, for RL
// reward loops and notebooks.
//   import kgate; r = kgate.check(source, path="x.py", task=None, policy=None, harness=None, contract=None,
//                                 config=None, cpp_engine="auto")
//   r.verdict ("pass"/"reject"/"unjudged"/"not-a-submission"), r.findings (rule, severity, message, line, col,
//   end_line, end_col), r.metrics (a dict: whatever the pipeline's metrics JSON holds).
// Rules load once per Gate (kgate.check uses one shared default Gate); analysis runs without the GIL.
// The optional Clang engine is linked and registered where it is built, as in the CLI; without it, C++
// facts come from tree-sitter-cuda and each embedded source gets the pipeline's engine-fallback warning.
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11_json/pybind11_json.hpp>

#include "analyzers/cuda/cuda_facts.h"
#include "analyzers/ingest/ingest.h"
#include "analyzers/core/data_dir.h"
#include "tools/python/gate.h"

#ifdef KGATE_HAVE_CLANG
#include "analyzers/cuda/clang/clang_engine.h"
#endif

#ifndef KGATE_VERSION
#define KGATE_VERSION "0.0.0"
#endif

namespace py = pybind11;

namespace {

// What Python sees of one check: the FileResult, with the verdict and severity as strings.
struct PyResult {
  kgate::FileResult result;
  const std::string& verdict() const { return result.verdict; }
};

std::string repr(const kgate::Diagnostic& d) {
  std::ostringstream out;
  out << "Finding(" << d.rule << ", " << kgate::to_string(d.severity) << ", line " << d.span.line << ":" << d.span.col
      << ": " << d.message << ")";
  return out.str();
}

std::string repr(const PyResult& r) {
  std::ostringstream out;
  out << "Result(" << r.result.path << ", " << r.verdict() << ", " << r.result.findings.size() << " finding(s))";
  return out.str();
}

std::shared_ptr<kgate::Gate> load_gate(const std::optional<std::string>& rules_dir) {
  auto loaded = kgate::Gate::load(rules_dir ? std::filesystem::path(*rules_dir) : kgate::default_rules_dir());
  if (!loaded) throw py::value_error(loaded.error());
  return std::shared_ptr<kgate::Gate>(std::move(*loaded));
}

// The Gate behind kgate.check: loaded on first use, then shared by every thread.
std::shared_ptr<const kgate::Gate> default_gate() {
  static std::mutex mutex;
  static std::shared_ptr<const kgate::Gate> gate;
  std::lock_guard<std::mutex> lock(mutex);
  if (!gate) gate = load_gate(std::nullopt);
  return gate;
}

using OptionalString = std::optional<std::string>;

kgate::CheckRequest request_of(std::string source, std::string path, const OptionalString& task,
                               const OptionalString& policy, const OptionalString& harness,
                               const OptionalString& contract, const OptionalString& config, std::string cpp_engine) {
  kgate::CheckRequest request;
  request.source = std::move(source);
  request.path = std::move(path);
  request.task = task.value_or("");
  request.policy = policy.value_or("");
  request.harness = harness.value_or("");
  request.contract = contract.value_or("");
  request.config = config.value_or("");
  request.cpp_engine = std::move(cpp_engine);
  return request;
}

// The keyword arguments of Gate.check and kgate.check, in order.
#define CHECK_ARGS                                                                                           \
  py::arg("source"), py::arg("path") = "x.py", py::arg("task") = py::none(), py::arg("policy") = py::none(), \
                     py::arg("harness") = py::none(), py::arg("contract") = py::none(),                      \
                     py::arg("config") = py::none(), py::arg("cpp_engine") = "auto"

PyResult run_check(const kgate::Gate& gate, const kgate::CheckRequest& request) {
  std::optional<kgate::Result<kgate::FileResult>> outcome;
  {
    py::gil_scoped_release release;  // the analysis touches no Python object: let other threads run
    outcome.emplace(gate.check(request));
  }
  if (!*outcome) throw py::value_error(outcome->error());
  return PyResult{std::move(outcome->value())};
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() =
      "KernelGate's static gate in process: kgate.check(source, path='x.py', task=None, policy=None, ...) -> Result";
  m.attr("__version__") = KGATE_VERSION;
#ifdef KGATE_BUILT_RUNTIME
  m.attr("built_runtime") = KGATE_BUILT_RUNTIME;
#else
  m.attr("built_runtime") = "";
#endif
  // An installed module finds its rules and shims under Python's install prefixes (the process is
  // python): sys.prefix for a virtualenv or system install, site.USER_BASE for `pip install --user`.
  kgate::add_install_prefix(py::module_::import("sys").attr("prefix").cast<std::string>());
  if (const py::object user_base = py::module_::import("site").attr("USER_BASE"); !user_base.is_none())
    kgate::add_install_prefix(user_base.cast<std::string>());
#ifdef KGATE_HAVE_CLANG
  kgate::cuda::clang_init();
#endif
  m.attr("clang_engine") = kgate::cuda::clang_available();

  py::class_<kgate::Diagnostic>(m, "Finding", "One finding: a rule that fired at a place in the source.")
      .def_readonly("rule", &kgate::Diagnostic::rule)
      .def_property_readonly("severity",
                             [](const kgate::Diagnostic& d) { return std::string(kgate::to_string(d.severity)); })
      .def_readonly("message", &kgate::Diagnostic::message)
      .def_readonly("path", &kgate::Diagnostic::path)
      .def_property_readonly("line", [](const kgate::Diagnostic& d) { return d.span.line; })
      .def_property_readonly("col", [](const kgate::Diagnostic& d) { return d.span.col; })
      .def_property_readonly("end_line", [](const kgate::Diagnostic& d) { return d.span.end_line; })
      .def_property_readonly("end_col", [](const kgate::Diagnostic& d) { return d.span.end_col; })
      .def_readonly("fingerprint", &kgate::Diagnostic::fingerprint)
      .def_readonly("engine", &kgate::Diagnostic::engine)
      .def("__repr__", [](const kgate::Diagnostic& d) { return repr(d); });

  py::class_<PyResult>(m, "Result", "The gate's answer for one source: verdict, findings and metrics.")
      .def_property_readonly("verdict", &PyResult::verdict, "'pass' or 'reject' (any error finding rejects)")
      .def_property_readonly("passed", [](const PyResult& r) { return !r.result.rejected; })
      .def_property_readonly("path", [](const PyResult& r) { return r.result.path; })
      .def_property_readonly("format", [](const PyResult& r) { return std::string(kgate::to_string(r.result.format)); })
      .def_property_readonly("findings", [](const PyResult& r) { return r.result.findings; })
      .def_property_readonly("suppressed", [](const PyResult& r) { return r.result.suppressed; })
      .def_property_readonly(
          "metrics", [](const PyResult& r) { return py::object(pyjson::from_json(r.result.metrics)); },
          "the pipeline's metrics object as a dict (a new dict per access)")
      .def("__repr__", [](const PyResult& r) { return repr(r); });

  py::class_<kgate::Gate, std::shared_ptr<kgate::Gate>>(
      m, "Gate", "Rules loaded once from a directory; check() may be called from many threads.")
      .def(py::init(&load_gate), py::arg("rules_dir") = py::none())
      .def(
          "check",
          [](const kgate::Gate& gate, std::string source, std::string path, const OptionalString& task,
             const OptionalString& policy, const OptionalString& harness, const OptionalString& contract,
             const OptionalString& config, std::string cpp_engine) {
            return run_check(gate, request_of(std::move(source), std::move(path), task, policy, harness, contract,
                                              config, std::move(cpp_engine)));
          },
          CHECK_ARGS)
      .def_property_readonly("rules_dir", [](const kgate::Gate& gate) { return gate.rules_dir().string(); })
      .def_property_readonly("rule_ids", [](const kgate::Gate& gate) {
        std::vector<std::string> ids;
        for (const auto& rule : gate.rules().rules()) ids.push_back(rule.id);
        return ids;
      });

  m.def(
      "check",
      [](std::string source, std::string path, const OptionalString& task, const OptionalString& policy,
         const OptionalString& harness, const OptionalString& contract, const OptionalString& config,
         std::string cpp_engine) {
        const auto gate = default_gate();
        return run_check(*gate, request_of(std::move(source), std::move(path), task, policy, harness, contract, config,
                                           std::move(cpp_engine)));
      },
      "Check one submission's source text with the default rules (KGATE_RULES_DIR, else the installed rules under "
      "sys.prefix, else the source tree's rules/). The options are `kgate check`'s: task or policy, harness "
      "(a profile name, default detected), contract (a dtype such as 'bf16'), config (a .kgate.yaml; none is "
      "looked up otherwise) and cpp_engine.",
      CHECK_ARGS);
#undef CHECK_ARGS
}
