"""GPU MODE tasks in the runtime. A GPU MODE problem is a directory with reference.py (generate_input,
ref_kernel, check_implementation), task.py (the input_t/output_t types) and task.yml (the files the
harness copies beside the submission, and the `tests:` argument sets); the candidate defines
custom_kernel(data). The judge runs every task through one interface (Model, get_inputs,
get_init_inputs, shape globals), so this module adapts a GPU MODE problem to it:

- The test arguments of task.yml are the shape globals: the first test is the public set, the other
  tests are the hidden sets.
- generate_input()'s data is flattened: its tensors are the inputs (refilled by the judge like any
  get_inputs() tensor); the rest of its structure, its constants and its output buffers (tensors that
  ref_kernel writes, GPU MODE's `data, output = data`) travel as a JSON spec, the one init input.
- Model(spec) and, in the worker, the candidate's entry rebuild the data from the spec and the input
  tensors, with a fresh output buffer (NaN for floating types) on each call, and call ref_kernel or
  custom_kernel. An output buffer is never one of the inputs, so writing it is no input mutation and
  returning it is no aliasing.

Both halves import this module: the judge (adapter) and the sandboxed worker (rebuild, entry)."""
import json
import os
import shutil
import sys
import types

import torch

_DTYPE_NAMES = {v: k for k, v in vars(torch).items() if isinstance(v, torch.dtype)}


# ----- both sides: the spec and the rebuild -----

def _dtype_name(dtype):
    return _DTYPE_NAMES[dtype]


def _constant(value, where):
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    raise TypeError(f"{where} a {type(value).__name__} the runtime cannot pass on; "
                    "supported: tensors, numbers, strings, None, and tuples, lists and dicts of them")


def _flatten(data, outputs, where="generate_input() returned"):
    """The spec of `data`: its tensors numbered in order ({"t": i}), except the output buffers (ids in
    `outputs`), which the spec describes instead."""
    count = [0]

    def spec(v):
        if isinstance(v, torch.Tensor):
            if id(v) in outputs:
                return {"out": list(v.shape), "dtype": _dtype_name(v.dtype)}
            count[0] += 1
            return {"t": count[0] - 1}
        if isinstance(v, tuple):
            return {"tuple": [spec(x) for x in v]}
        if isinstance(v, list):
            return {"list": [spec(x) for x in v]}
        if isinstance(v, dict):
            if not all(isinstance(k, str) for k in v):
                raise TypeError(f"{where} a dict with keys that are not strings")
            return {"dict": {k: spec(x) for k, x in v.items()}}
        return {"c": _constant(v, where)}

    return spec(data)


def flatten_output(out, who):
    """(tensors, spec JSON) of what a reference or a candidate returned: a tensor, or a tuple, list or dict
    of tensors and constants (GPU MODE's eigh returns (Q, L); its moe a tensor and a dict). Both sides
    flatten the same way, so the judge compares tensor i with tensor i, and rebuild(spec, tensors) gives
    the task's checker the structure the candidate returned. A tuple of one tensor counts as the tensor."""
    where = f"{who} returned"
    spec = _flatten(out, set(), where)
    tensors = _leaves(out)
    if not tensors:
        raise TypeError(f"{where} a {type(out).__name__} that holds no tensor")
    return tensors, json.dumps(spec)


def _inputs(spec, data):
    """The input tensors of `data` in the spec's order: where the spec says {"t": i}."""
    if "t" in spec:
        return [data]
    if "tuple" in spec or "list" in spec:
        return [t for s, v in zip(spec.get("tuple", spec.get("list")), data) for t in _inputs(s, v)]
    if "dict" in spec:
        return [t for k, s in spec["dict"].items() for t in _inputs(s, data[k])]
    return []


def rebuild(spec, tensors, device):
    """The data custom_kernel/ref_kernel takes, from a spec and the input tensors."""
    if "t" in spec:
        return tensors[spec["t"]]
    if "out" in spec:
        dtype = getattr(torch, spec["dtype"])
        if dtype.is_floating_point or dtype.is_complex:
            return torch.full(spec["out"], float("nan"), dtype=dtype, device=device)
        return torch.zeros(spec["out"], dtype=dtype, device=device)
    if "tuple" in spec:
        return tuple(rebuild(s, tensors, device) for s in spec["tuple"])
    if "list" in spec:
        return [rebuild(s, tensors, device) for s in spec["list"]]
    if "dict" in spec:
        return {k: rebuild(s, tensors, device) for k, s in spec["dict"].items()}
    return spec["c"]


def _device_of(tensors):
    return tensors[0].device if tensors else torch.device("cpu")


class Entry(torch.nn.Module):
    """A GPU MODE function (ref_kernel, custom_kernel) as a module over the flattened inputs. The worker
    prepares the data (the fresh output buffers: fills, the runtime's work) before the traced and timed
    call, and calls the function on it (kgate_worker.prepare_call, call)."""

    def __init__(self, function, spec_json):
        super().__init__()
        self._function = function
        self._spec = json.loads(spec_json)

    def prepare(self, tensors):
        return rebuild(self._spec, list(tensors), _device_of(tensors))

    def call_prepared(self, data):
        return self._function(data)

    def forward(self, *tensors):
        return self.call_prepared(self.prepare(tensors))


def candidate_entry(module):
    """The worker's factory for a GPU MODE candidate: Entry(custom_kernel, spec)."""
    if not callable(getattr(module, "custom_kernel", None)):
        raise ImportError("the submission defines no custom_kernel (GPU MODE's entry point)")
    return lambda spec_json: Entry(module.custom_kernel, spec_json)


# ----- the judge's side: the adapter -----

def is_gpumode_reference(module):
    return callable(getattr(module, "generate_input", None)) and callable(getattr(module, "ref_kernel", None))


def _task_yml(task_dir):
    path = os.path.join(task_dir, "task.yml")
    if not os.path.isfile(path):
        return {}
    import yaml
    with open(path, encoding="utf-8") as f:
        doc = yaml.safe_load(f) or {}
    return doc if isinstance(doc, dict) else {}


def stage_files(task_dir, stage_dir):
    """Copies the files task.yml lists (utils.py from ../utils.py, task.py) into stage_dir, as GPU MODE's
    harness does beside the submission; the submission itself, the reference (loaded from its own
    path) and the harness's eval.py are not copied. Returns the names task.yml listed whose source is
    missing."""
    missing = []
    for entry in _task_yml(task_dir).get("files", []) or []:
        if not isinstance(entry, dict):
            continue
        name, source = str(entry.get("name", "")), str(entry.get("source", ""))
        if not name or source == "@SUBMISSION@" or name in ("eval.py", "reference.py", "submission.py"):
            continue
        path = os.path.normpath(os.path.join(task_dir, source))
        if os.path.isfile(path):
            shutil.copyfile(path, os.path.join(stage_dir, os.path.basename(name)))
        else:
            missing.append(f"{name} (from {source})")
    return missing


# The shape symbol that tells apart tests whose integer arguments are all equal (GPU MODE's trimul runs
# one size and seed under two distributions): the test's place among such tests.
VARIANT = "kgate_variant"


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def test_sets(task_dir, key="tests"):
    """task.yml's `tests:` (or `benchmarks:`) as (integers, others) pairs. The integer arguments are the
    judge's shape symbols; the others (booleans, strings, lists, None: trimul's `nomask` and
    `distribution`, cholesky's `case`) ride along with them and reach generate_input unchanged."""
    sets = []
    for test in _task_yml(task_dir).get(key, []) or []:
        if not isinstance(test, dict):
            continue
        ints = {str(k): v for k, v in test.items() if _is_int(v)}
        others = {str(k): v for k, v in test.items() if not _is_int(v)}
        sets.append((ints, others))
    return sets


def _key(ints):
    return json.dumps(ints, sort_keys=True)


def _tell_apart(pairs):
    """The pairs with VARIANT added to the integers where two of them share every integer (0 for the
    first of such a group, 1 for the next, ...); a task whose tests never do keeps its symbols as they are."""
    seen = {}
    for ints, _ in pairs:
        seen[_key(ints)] = seen.get(_key(ints), 0) + 1
    if all(n == 1 for n in seen.values()):
        return pairs
    count = {}
    out = []
    for ints, others in pairs:
        k = _key(ints)
        out.append(({**ints, VARIANT: count.get(k, 0)}, others))
        count[k] = count.get(k, 0) + 1
    return out


def _bytes_of(t):
    t = t.detach()
    return t.contiguous().view(torch.uint8) if t.numel() else t


def _leaves(data):
    if isinstance(data, torch.Tensor):
        return [data]
    if isinstance(data, (tuple, list)):
        return [t for v in data for t in _leaves(v)]
    if isinstance(data, dict):
        return [t for v in data.values() for t in _leaves(v)]
    return []


def _copy(data, replace=None):
    """A copy of the data with every tensor cloned (the one at index `replace[0]` made `replace[1]`)."""
    counter = [0]

    def copy(v):
        if isinstance(v, torch.Tensor):
            i = counter[0]
            counter[0] += 1
            return replace[1](v) if replace and replace[0] == i else v.clone()
        if isinstance(v, tuple):
            return tuple(copy(x) for x in v)
        if isinstance(v, list):
            return [copy(x) for x in v]
        if isinstance(v, dict):
            return {k: copy(x) for k, x in v.items()}
        return v

    return copy(data)


def _same(a, b):
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        return a.shape == b.shape and a.dtype == b.dtype and torch.equal(_bytes_of(a), _bytes_of(b))
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


def _output_leaves(ref_kernel, data):
    """ids of the tensors of `data` that are output buffers: those ref_kernel writes (found by running it
    on a copy and comparing bytes), and floating ones its result does not depend on (GPU MODE hands an
    output buffer in the data even where the reference returns a new tensor: NaN in it changes nothing)."""
    leaves = _leaves(data)
    with torch.no_grad():
        pristine = _copy(data)
        run = _copy(pristine)
        baseline = ref_kernel(run)
        written = {i for i, (t, b) in enumerate(zip(_leaves(run), _leaves(pristine)))
                   if not torch.equal(_bytes_of(t), _bytes_of(b))}
        for i, t in enumerate(leaves):
            if i in written or not t.is_floating_point() or t.numel() == 0:
                continue
            try:
                poisoned = ref_kernel(_copy(pristine, (i, lambda v: torch.full_like(v, float("nan")))))
            except Exception:  # noqa: BLE001 - a reference that raises on NaN (eigh) reads that tensor
                continue
            if _same(poisoned, baseline):
                written.add(i)
    return {id(leaves[i]) for i in written}


def make_adapter(reference, task_dir, module_name):
    """A module with the judge's interface over a loaded GPU MODE reference."""
    adapter = types.ModuleType(module_name + "_gpumode")
    tests = test_sets(task_dir)
    pairs = _tell_apart(tests + test_sets(task_dir, "benchmarks"))
    n_tests = len(tests)
    if not n_tests:
        raise ImportError(f"{task_dir}/task.yml lists no tests: a GPU MODE task needs at least one argument set")
    sets = [ints for ints, _ in pairs[:n_tests]]
    names = sorted(sets[0])
    for name in names:
        setattr(adapter, name, sets[0][name])
    benchmarks = [ints for ints, _ in pairs[n_tests:] if sorted(ints) == names]
    # The other arguments of each argument set, by its integers (the first set's where the judge's
    # symbols name none of task.yml's sets).
    others = {}
    for ints, rest in pairs:
        others.setdefault(_key(ints), rest)
    adapter.__kgate_gpumode__ = {"tests": sets, "benchmarks": benchmarks, "names": names}
    specs = {}

    def arguments():
        ints = {name: getattr(adapter, name) for name in names}
        args = {**others.get(_key(ints), pairs[0][1]), **ints}
        args.pop(VARIANT, None)
        return args

    def draw():
        # The test's `seed` is public (task.yml); the judge seeds torch's generator with a secret one before
        # each draw (input_structure), so the values a candidate sees come from a seed nobody could read.
        args = arguments()
        if "seed" in args:
            args["seed"] = int(torch.randint(0, 2**31 - 1, (1,), device="cpu").item())
        return reference.generate_input(**args)

    def spec_json():
        key = json.dumps(arguments(), sort_keys=True, default=repr)
        if key not in specs:
            data = draw()
            outputs = _output_leaves(reference.ref_kernel, data)
            specs[key] = json.dumps(_flatten(data, outputs))
        return specs[key]

    def get_inputs():
        return _inputs(json.loads(spec_json()), draw())

    class Model(Entry):
        def __init__(self, spec):
            super().__init__(reference.ref_kernel, spec)

    adapter.Model = Model
    adapter.get_inputs = get_inputs
    adapter.get_init_inputs = lambda: [spec_json()]
    adapter.__kgate_reference__ = reference
    return adapter


def io_bytes(adapter):
    """(bytes of the inputs, bytes of the reference's output), floating tensors at 4 bytes, from one real
    draw and reference call: generate_input() names its device, so the meta device cannot stand in."""
    def nbytes(t):
        return t.numel() * (4 if t.is_floating_point() else t.element_size())

    inputs = adapter.get_inputs()
    with torch.no_grad():
        out = adapter.Model(*adapter.get_init_inputs())(*inputs)
    outputs, _ = flatten_output(out, "the reference")
    return sum(nbytes(t) for t in inputs), sum(nbytes(t) for t in outputs)


def run_checker(reference, data, output):
    """The task's check_implementation on (data, output): (accepted, its message); (True, "") where the task
    has none. GPU MODE's checkers return (bool, str); a bare bool or a tensor of one is taken too."""
    check = getattr(reference, "check_implementation", None)
    if not callable(check):
        return True, ""
    verdict = check(data, output)
    message = ""
    if isinstance(verdict, (tuple, list)):
        message = " ".join(str(v) for v in verdict[1:]) if len(verdict) > 1 else ""
        verdict = verdict[0] if verdict else False
    return bool(verdict), message


def checker_accepts(reference, data, output):
    """Whether the task's check_implementation accepts (data, output) (True where the task has none)."""
    return run_checker(reference, data, output)[0]


def has_own_checker(reference):
    """Whether check_implementation is the task's own code rather than GPU MODE's make_match_reference (a
    closure over `reference` and `kwargs` that compares with the reference's output as the judge does). Its
    own checker defines what a right output is (eigh's eigenvectors up to sign, a sort's stability), so the
    judge asks it about each output (kgate_judge.task_check)."""
    check = getattr(reference, "check_implementation", None)
    if not callable(check):
        return False
    code = getattr(check, "__code__", None)
    return code is None or not {"reference", "kwargs"} <= set(code.co_freevars)


def task_tolerance(reference):
    """{"rtol", "atol"} that the task's check_implementation compares with, where it is GPU MODE's
    make_match_reference(ref_kernel, rtol=..., atol=...) (read from the closure it returns; a value it
    leaves out is match_reference's default); None for any other checker, or one with neither."""
    check = getattr(reference, "check_implementation", None)
    code = getattr(check, "__code__", None)
    if code is None or not check.__closure__:
        return None
    cells = dict(zip(code.co_freevars, check.__closure__))
    try:
        kwargs = cells["kwargs"].cell_contents
    except (KeyError, ValueError):
        return None
    if not isinstance(kwargs, dict) or not {"rtol", "atol"} & kwargs.keys():
        return None
    try:
        return {"rtol": float(kwargs.get("rtol", 1e-5)), "atol": float(kwargs.get("atol", 1e-8))}
    except (TypeError, ValueError):
        return None


def shape_sets(adapter):
    """The judge's shape sets for a GPU MODE task: task.yml's first test public; the other tests and the
    first benchmark hidden (GPU MODE checks its benchmark sizes too, and a kernel that is right only
    below some size shows there). With them, the task's own tolerance where check_implementation says it."""
    facts = adapter.__kgate_gpumode__
    hidden = facts["tests"][1:] + facts["benchmarks"][:1]
    sets = {"public": facts["tests"][0], "hidden": hidden, "origin": "task.yml tests and first benchmark"}
    tolerance = task_tolerance(adapter.__kgate_reference__)
    if tolerance:
        sets["tolerance"] = tolerance
    return json.dumps(sets)


def add_to_path(directory):
    if directory and directory not in sys.path:
        sys.path.insert(0, directory)
