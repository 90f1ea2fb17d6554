// KernelGate shim: pybind11/functional.h.
#pragma once
#include "pybind11.h"
