// Bundles: a published submission that concatenates solution.py with its sidecar files under banner
// lines (`# ===== sidecar: NAME (N bytes, loaded by solution.py) =====`), split back into the host
// Python text and the named sidecars, which then stand in for sibling files.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kgate::ingest {

struct Bundle {
  std::string host;                                           // the text before the first sidecar banner
  std::vector<std::pair<std::string, std::string>> sidecars;  // (file name, text), in file order
};

// The split of `text`, or an empty Bundle (no sidecars, empty host) when it has no sidecar banner.
// The host keeps its line numbers: it is a prefix of `text`.
Bundle split_bundle(std::string_view text);

}  // namespace kgate::ingest
