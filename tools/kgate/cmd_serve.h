// `kgate-runtime serve`: the judge kept alive for a stream of candidates (kgate.Verifier).
#pragma once

#include "tools/kgate/cmd_run.h"

namespace kgate::cli {

RegisteredCommand add_serve_command(CLI::App& parent);

}  // namespace kgate::cli
