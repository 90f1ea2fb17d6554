// Many files at once: discovering inputs under directories and analysing them on a thread pool.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "analyzers/pipeline/pipeline.h"

namespace kgate {

// Extensions a directory walk picks up; a file named explicitly is always analysed.
bool is_analysable_extension(const std::string& path);

// Files to analyse, in input order; each directory is walked recursively in sorted order, skipping
// hidden entries (".git", ".venv") and whatever `excluded` says (config `exclude`).
std::vector<std::string> discover_files(const std::vector<std::string>& paths,
                                        const std::function<bool(const std::string& path)>& excluded);

struct BatchItem {
  std::string path;
  const AnalysisContext* context = nullptr;  // contexts may differ per file (nearest .kgate.yaml)
};

// Runs analyze_file over the items on `threads` workers (0: the hardware's count). Results come back
// in input order whatever order the workers finish in.
std::vector<FileResult> analyze_batch(const std::vector<BatchItem>& items, unsigned threads);

// The streaming form (kgate audit): `analyze` runs on the workers (analyze_file when null), and
// `on_done(index, result)` is called as each item finishes, one call at a time (the calls are
// serialised), in completion order. A throwing `analyze` rejects that file; the batch goes on.
using AnalyzeItem = std::function<FileResult(size_t index, const BatchItem& item)>;
using ItemDone = std::function<void(size_t index, FileResult&& result)>;
void analyze_batch_each(const std::vector<BatchItem>& items, unsigned threads, const AnalyzeItem& analyze,
                        const ItemDone& on_done);

}  // namespace kgate
