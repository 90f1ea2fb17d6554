// A core header that includes a later layer: tests/layers_test.py must report it.
#pragma once
#include "analyzers/pipeline/pipeline.h"
