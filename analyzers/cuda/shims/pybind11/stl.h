// KernelGate shim: pybind11/stl.h.
#pragma once
#include "pybind11.h"
