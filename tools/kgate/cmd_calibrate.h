// `kgate calibrate`: the GPU's measured peaks in the calibration cache (registered with the runtime).
#pragma once

#include "tools/kgate/cmd_run.h"

namespace kgate::cli {

RegisteredCommand add_calibrate_command(CLI::App& parent);

}  // namespace kgate::cli
