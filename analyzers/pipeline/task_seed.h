// Randomness a task prescribes. A task whose reference seeds PyTorch's generator from one of its own
// inputs and then draws from it (LeetGPU's top-p sampling: `torch.manual_seed(seed.item())`, then
// `torch.multinomial(...)`) makes that draw part of its answer: a solution matches the reference only
// by seeding from the same input and drawing with the same sampler, and no kernel reproduces PyTorch's
// sampler stream. Such a seed is the harness's value, not one the submission chose, so it cannot
// regenerate the harness's inputs (seed-rederive), and the draw is the task's, not a fallback.
//
// What counts: a seeding call (manual_seed, manual_seed_all, seed on torch or a torch.Generator) whose
// every argument is read from one parameter of its function alone, through locals, reads that keep the
// value (.item(), .cpu(), .to(), .view(), ...), int()/float()/abs() and constant subscripts (`seed[0]`).
// Arithmetic, other methods (`seed.numel()`, `seed.shape[0]`) or a number mixed in (`seed * 0 + 1234`,
// `seed - seed`) make it the submission's choice again.
#pragma once

#include <set>
#include <string>

#include <tree_sitter/api.h>

#include "analyzers/core/facts.h"
#include "analyzers/ingest/ingest.h"

namespace kgate {

struct SeededDraws {
  // The reference's parameters that its functions seed from.
  std::set<std::string> seed_params;
  // The samplers ("multinomial": torch.multinomial or Tensor.multinomial) that a reference function
  // seeding from a parameter draws with.
  std::set<std::string> draws;
  bool empty() const { return seed_params.empty(); }
};

// The seeded draws of a reference, from its facts and syntax tree.
SeededDraws read_seeded_draws(const FactSet& reference, const SourceFile& source, TSNode root);

// Marks a candidate's calls that repeat its reference's seeded draws (Call::mirrors_reference): a
// seeding call whose value comes from the same-named parameter of its function alone, and, in a
// function with such a seed, the random draws the reference makes after its own seed.
void mark_seeded_draws(FactSet& candidate, const SourceFile& source, TSNode root, const SeededDraws& reference);

}  // namespace kgate
