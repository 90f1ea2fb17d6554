"""F10, evasive: an output-argument entry written as a lambda at module level. The harness calls
solve(x, out, n); the lambda copies torch.relu's result into out. There is no def solve to follow,
so the binding itself is the finding."""
import torch

# ruleid: entry-class-replaced
solve = lambda x, out, n: out.copy_(torch.relu(x))  # noqa: E731
