# Measurements behind `kgate tasks lint` (runtime/tasklint.cpp embeds this file): runs one task
# reference on CPU for one shape set and reports facts as JSON. The C++ side judges them.
import atexit
import json
import math
import os
import shutil
import sys
import tempfile

import torch
from torch.utils.flop_counter import FlopCounterMode

_loaded = 0


_stages = {}  # a GPU MODE problem's directory -> where its files (utils.py, task.py) are staged


def _load(path):
    """The reference as the judge loads it (kgate_judge.load_module): a KernelBench module as it is, a GPU
    MODE problem or a LeetGPU challenge adapted to the same interface (Model, get_inputs, shape globals)."""
    global _loaded
    _loaded += 1
    import kgate_judge  # the runtime's helper directory is on sys.path in the embedded interpreter
    task_dir = os.path.dirname(os.path.abspath(path))
    stage = ""
    if os.path.isfile(os.path.join(task_dir, "task.yml")):
        stage = _stages.get(task_dir)
        if stage is None:
            stage = _stages[task_dir] = tempfile.mkdtemp(prefix="kgate-tasklint-")
            atexit.register(shutil.rmtree, stage, True)
        # One process lints many problems: another problem's staged modules (utils, task) must not
        # answer this one's imports.
        others = {d for d in _stages.values() if d != stage}
        for name, module in list(sys.modules.items()):
            if os.path.dirname(getattr(module, "__file__", None) or "") in others:
                del sys.modules[name]
        sys.path[:] = [p for p in sys.path if p not in others]
    module = kgate_judge.load_module(path, f"kgate_task_reference_{_loaded}", stage)
    if kgate_judge._adapted(module):
        # An adapter describes its case once, from a first draw (the judge builds the model before it
        # draws inputs): done here, so that every later draw under one seed is the same draw.
        module.get_init_inputs()
    return module


def _tensors(value):
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _tensors(v)]
    return []


def _nbytes(values):
    return sum(t.numel() * t.element_size() for t in _tensors(values))


def _same(a, b):
    ta, tb = _tensors(a), _tensors(b)
    if len(ta) != len(tb):
        return False
    for x, y in zip(ta, tb):
        if x.shape != y.shape or x.dtype != y.dtype:
            return False
        if x.is_floating_point() or x.is_complex():
            if not torch.equal(torch.nan_to_num(x, nan=0.0), torch.nan_to_num(y, nan=0.0)) or \
                    not torch.equal(torch.isnan(x), torch.isnan(y)):
                return False
        elif not torch.equal(x, y):
            return False
    return True


def _draw(module, shapes, seed):
    for name, value in shapes.items():
        setattr(module, name, value)
    torch.manual_seed(seed)
    return list(module.get_inputs())


def _model(module, seed):
    torch.manual_seed(seed)
    model = module.Model(*module.get_init_inputs())
    model.eval()
    return model


def _forward(model, inputs):
    with torch.no_grad():
        return model(*inputs)


def _magnitude(output):
    values = [t.detach().to(torch.float64).flatten() for t in _tensors(output)]
    flat = torch.cat(values) if values else torch.zeros(0, dtype=torch.float64)
    finite = flat[torch.isfinite(flat)]
    numel = int(flat.numel())
    return {
        "numel": numel,
        "nonfinite": numel - int(finite.numel()),
        "max_abs": float(finite.abs().max()) if finite.numel() else 0.0,
        "l2": float(torch.linalg.vector_norm(finite)) if finite.numel() else 0.0,
    }


def _failed(what, error):
    """Why the reference did not run. A reference that names the CUDA device (GPU MODE's generate_input)
    cannot run on a machine without one: that is this machine's limit, said as such, not the task's."""
    text = f"{type(error).__name__}: {error}".splitlines()[0]
    if not torch.cuda.is_available() and any(word in text.lower() for word in ("cuda", "nvidia driver")):
        return f"{what}: the reference needs a CUDA device and this machine has none; lint it on one ({text})"
    return f"{what}: {text}"


def measure(reference, shapes_json, seed):
    """Facts about one reference on one shape set: symbols, sizes, determinism, dependence, FLOPs."""
    shapes = json.loads(shapes_json)
    facts = {"shapes": shapes}
    torch.set_num_threads(max(1, min(2, torch.get_num_threads())))
    try:
        module = _load(reference)
    except Exception as error:  # the reference itself is broken: report, do not crash the lint
        facts["error"] = _failed("importing the reference", error)
        return json.dumps(facts)
    facts["not_int_globals"] = sorted(
        name for name in shapes
        if not isinstance(getattr(module, name, None), int) or isinstance(getattr(module, name, None), bool))
    for entry in ("Model", "get_inputs", "get_init_inputs"):
        if not callable(getattr(module, entry, None)):
            facts["error"] = f"the reference has no callable {entry}"
            return json.dumps(facts)
    if facts["not_int_globals"]:
        return json.dumps(facts)
    try:
        inputs = _draw(module, shapes, seed)
        model = _model(module, seed)
        first = _forward(model, inputs)
        again = _forward(_model(module, seed), _draw(module, shapes, seed))
        facts["deterministic"] = _same(first, again)
        facts["output"] = _magnitude(first)
        facts["output_bytes"] = _nbytes(first)
        facts["input_bytes"] = _nbytes(inputs)
        facts["parameter_bytes"] = sum(p.numel() * p.element_size() for p in model.parameters()) + \
            sum(b.numel() * b.element_size() for b in model.buffers())
        # Dependence (M5): a fresh draw of each input, one at a time, under the same model.
        other = _draw(module, shapes, seed + 7919)
        dependence = []
        for index, value in enumerate(inputs):
            if not isinstance(value, torch.Tensor):
                continue
            entry = {"index": index, "redrawn": not _same(value, other[index])}
            if entry["redrawn"]:
                varied = list(inputs)
                varied[index] = other[index]
                entry["output_changed"] = not _same(first, _forward(model, varied))
            dependence.append(entry)
        facts["dependence"] = dependence
        counter = FlopCounterMode(display=False)
        with counter:
            _forward(model, inputs)
        facts["flops_counted"] = int(counter.get_total_flops())
        facts["flops_by_op"] = {str(op): int(n) for op, n in counter.get_flop_counts().get("Global", {}).items()}
    except Exception as error:
        facts["error"] = _failed("running the reference", error)
    return json.dumps(facts)


def draw_inputs(reference, seed):
    """One get_inputs() draw at the reference's own globals: tensors, None for anything else."""
    module = _load(reference)
    return [v if isinstance(v, torch.Tensor) else None for v in _draw(module, {}, seed)]


if __name__ == "__main__":  # python runtime/tasklint.py REFERENCE '{"N": 8}' for a look by hand
    print(measure(sys.argv[1], sys.argv[2], 0))
