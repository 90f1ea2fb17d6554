// A runtime task: the reference and its manifest (docs/task-manifest.md). One home for every consumer:
// the judge (shapes, dtypes, fills, tolerances), profiling (FLOP/byte formulas), `kgate tasks lint`,
// and the static gate's policy. The struct and its loader are torch-free and live in
// analyzers/tasks/task_manifest.h so the static gate reads the same manifests; this header is the
// runtime's name for them.
#pragma once

#include "analyzers/tasks/task_manifest.h"
