// A directory judged as one submission (`kgate check --submission DIR`): a solution.py with its
// sidecar .cu, a helper module, the harness's task.py and reference.py. Every file is analysed as in
// any batch; the results are then folded into one verdict for the directory.
#pragma once

#include <string>
#include <vector>

#include "analyzers/pipeline/pipeline.h"

namespace kgate {

// The result of the submission in `dir` from the results of its files (any order):
// - a file that another file's entry read as its own sources (load(sources=[...]), an imported
//   sibling PYBIND11 module) is judged through that entry, not again on its own;
// - the harness's own files (reference.py, task.py: verdict not-a-submission) are not candidates;
// - any other file that is rejected rejects the submission (a helper module that patches a timer);
// - exactly one file must hold the harness's entry: none, or several, leaves the submission
//   unjudged, with an entry-not-found finding that says which;
// - otherwise the verdict is the entry file's.
// The folded result's path is `dir`; its findings keep their own files' paths, then the fold's own.
FileResult fold_submission(const std::string& dir, const std::vector<FileResult>& files);

}  // namespace kgate
