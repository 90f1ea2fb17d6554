// `kgate speedup`: fast_p and geometric-mean speedup tables over kgate run reports.
#pragma once

#include "tools/kgate/cmd_run.h"

namespace kgate::cli {

RegisteredCommand add_speedup_command(CLI::App& parent);

}  // namespace kgate::cli
