// Includes an earlier layer: allowed.
#pragma once
#include "analyzers/core/upward.h"
