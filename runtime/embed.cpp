// Embedded CPython start-up and the C++/Python crossings of the judge and the worker.
#include "runtime/embed.h"

#include <Python.h>

#include <cstdlib>
#include <stdexcept>

#include <torch/csrc/autograd/python_variable.h>

namespace py = pybind11;

namespace kgate::runtime::embed {

Status start_python() {
  if (Py_IsInitialized()) return Status::ok();
  PyConfig config;
  PyConfig_InitIsolatedConfig(&config);
  config.install_signal_handlers = 0;  // SIGINT, SIGSYS and friends stay with kgate
  config.write_bytecode = 0;           // the worker may not write next to the sources anyway
  PyStatus status = PyConfig_SetBytesString(&config, &config.program_name, KGATE_PYTHON_EXECUTABLE);
  if (!PyStatus_Exception(status)) status = Py_InitializeFromConfig(&config);
  PyConfig_Clear(&config);
  if (PyStatus_Exception(status)) {
    return Error{std::string("cannot start the embedded Python (") + KGATE_PYTHON_EXECUTABLE +
                 "): " + (status.err_msg ? status.err_msg : "unknown error")};
  }
  try {
    py::module_::import("sys").attr("path").attr("insert")(0, helper_dir().string());
  } catch (const py::error_already_set& e) {
    return Error{"embedded Python: " + error_text(e)};
  }
  return Status::ok();
}

std::filesystem::path helper_dir() {
  if (const char* dir = std::getenv("KGATE_RUNTIME_PYTHON_DIR"); dir && *dir) return dir;
  return KGATE_RUNTIME_PYTHON_DIR;
}

py::module_ helper(const std::string& name) { return py::module_::import(name.c_str()); }

py::object wrap(const at::Tensor& tensor) { return py::reinterpret_steal<py::object>(THPVariable_Wrap(tensor)); }

at::Tensor unwrap(py::handle object) {
  if (!THPVariable_Check(object.ptr())) throw std::invalid_argument("not a tensor");
  return THPVariable_Unpack(object.ptr());
}

std::vector<at::Tensor> unwrap_all(py::handle sequence) {
  std::vector<at::Tensor> tensors;
  for (auto item : sequence) tensors.push_back(unwrap(item));
  return tensors;
}

std::string error_text(const py::error_already_set& error) {
  std::string text = error.what();
  // pybind11 appends the traceback after the message; keep the message and the innermost frame.
  const auto at = text.find("\n\nAt:\n");
  if (at == std::string::npos) return text;
  std::string message = text.substr(0, at);
  const auto frame_begin = at + 6;
  const auto frame_end = text.find('\n', frame_begin);
  std::string frame =
      text.substr(frame_begin, frame_end == std::string::npos ? std::string::npos : frame_end - frame_begin);
  while (!frame.empty() && frame.front() == ' ') frame.erase(frame.begin());
  return message + " (at " + frame + ")";
}

}  // namespace kgate::runtime::embed
