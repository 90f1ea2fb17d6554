"""Output-argument entries (LeetGPU- and Tensara-style `solve(a, b, out, n)` / `solution(...)`): the
submission writes its result into an output buffer the harness hands it and returns nothing.

The task is a KernelBench-style reference (Model, get_inputs, get_init_inputs). Each call binds the entry's
parameters by position: first get_inputs()' tensors, then one output buffer for each tensor the reference
returns, in its order (`solve(x, mean, amax, N)` for a reference returning (mean, amax); each of that
output's shape and dtype, filled with NaN, or the most negative value for integers, fresh on every call),
then every other parameter by name from the reference's module-level integers (its sizes: `N`, `B`, ...;
exact name first, then ignoring case). The judge computes the outputs' shapes and dtypes per shape set
(output_spec, in the judge) and sends them as the entry's only init input; the worker wraps the function
in Entry, which returns the buffer, or the tuple of buffers, for the judge to compare."""
import inspect
import json

import torch

ENTRY_NAMES = ("solve", "solution")


def entry_function(module):
    for name in ENTRY_NAMES:
        if callable(getattr(module, name, None)):
            return getattr(module, name)
    return None


def sizes_of(module):
    """The reference's module-level integers (not bools): what size parameters are bound from."""
    return {name: value for name, value in vars(module).items()
            if not name.startswith("_") and isinstance(value, int) and not isinstance(value, bool)}


def output_spec(module, outs, run_dtype):
    """The Entry's spec for one shape set: the reference's outputs `outs` (a list of tensors, checked by the
    judge: each one's shape; a floating output in the run's dtype, a torch.dtype) and the sizes the
    parameters may name."""
    specs = []
    for out in outs:
        dtype = run_dtype if out.is_floating_point() and run_dtype.is_floating_point else out.dtype
        specs.append({"shape": list(out.shape), "dtype": str(dtype).removeprefix("torch.")})
    return json.dumps({"outputs": specs, "sizes": sizes_of(module)})


class Entry(torch.nn.Module):
    """An output-argument function as a module over the inputs. prepare() (the runtime's own code, before
    the traced and timed window) makes the output buffer and binds the arguments; call_prepared() calls the
    function and returns the buffer."""

    def __init__(self, function, spec_json):
        super().__init__()
        spec = json.loads(spec_json)
        self._function = function
        self._outputs = [(tuple(o["shape"]), getattr(torch, o["dtype"])) for o in spec["outputs"]]
        self._sizes = spec["sizes"]
        self._params = [p for p in inspect.signature(function).parameters.values()
                        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        self._name = getattr(function, "__name__", "solve")

    def _size(self, name, n_bound):
        if name in self._sizes:
            return self._sizes[name]
        folded = [v for k, v in self._sizes.items() if k.lower() == name.lower()]
        if len(folded) == 1:
            return folded[0]
        raise TypeError(f"{self._name}'s parameter {name!r} (after {n_bound} inputs and outputs) names none of "
                        f"the task's sizes ({', '.join(sorted(self._sizes)) or 'none'})")

    def prepare(self, tensors):
        tensors = list(tensors)
        bound = len(tensors) + len(self._outputs)
        if len(self._params) < bound:
            raise TypeError(f"{self._name} takes {len(self._params)} positional parameters; the task passes "
                            f"{len(tensors)} inputs and {len(self._outputs)} output"
                            f"{'s' if len(self._outputs) > 1 else ''}")
        device = tensors[0].device if tensors else torch.device("cpu")
        outs = []
        for shape, dtype in self._outputs:
            fill = float("nan") if dtype.is_floating_point else torch.iinfo(dtype).min
            outs.append(torch.full(shape, fill, dtype=dtype, device=device))
        rest = [self._size(p.name, bound) for p in self._params[bound:]
                if p.default is inspect.Parameter.empty or p.name in self._sizes]
        return tensors + outs + rest, outs

    def call_prepared(self, prepared):
        args, outs = prepared
        self._function(*args)
        return outs[0] if len(outs) == 1 else tuple(outs)

    def forward(self, *tensors):
        return self.call_prepared(self.prepare(tensors))


def candidate_entry(module):
    """The worker's factory for an output-argument candidate: Entry(solve, spec)."""
    function = entry_function(module)
    if function is None:
        raise ImportError("the submission defines no solve or solution (the output-argument entry)")
    return lambda spec_json: Entry(function, spec_json)
