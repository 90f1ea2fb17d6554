// Embedded CPython for the judge and the worker: start-up against the venv torch was built from, the
// helper modules of runtime/python, and the crossings (tensors, JSON, error text) between C++ and Python.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>
#include <nlohmann/json.hpp>
#include <pybind11/pybind11.h>

#include "analyzers/core/status.h"

namespace kgate::runtime::embed {

// Starts the interpreter once per process: isolated from the environment (PYTHONPATH, PYTHONHOME and
// user site are ignored), the venv of KGATE_PYTHON_EXECUTABLE, no Python signal handlers.
Status start_python();

// runtime/python (next to the sources; KGATE_RUNTIME_PYTHON_DIR overrides it for an install).
std::filesystem::path helper_dir();

// Imports runtime/python/<name>.py. Throws pybind11::error_already_set.
pybind11::module_ helper(const std::string& name);

pybind11::object wrap(const at::Tensor& tensor);
at::Tensor unwrap(pybind11::handle object);  // throws std::invalid_argument when it is not a tensor
// A Python list (or tuple) of tensors; throws std::invalid_argument when an item is not a tensor.
std::vector<at::Tensor> unwrap_all(pybind11::handle sequence);

// The message of a pending or caught Python error: "TypeError: ..." plus the last traceback line.
std::string error_text(const pybind11::error_already_set& error);

}  // namespace kgate::runtime::embed
