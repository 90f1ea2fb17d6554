"""LeetGPU challenges in the runtime. A challenge is a challenge.py whose Challenge class gives
reference_impl (writes its outputs into buffers it is handed), get_solve_signature (solve's parameters in
order: a ctypes pointer or torch.Tensor for each tensor, "in", "out" or "inout"; a ctypes number for each
scalar) and the generate_example_test / generate_functional_test / generate_performance_test case dicts
(tensors, numbers, and lazy descriptors such as RandTensor and OutTensor). The candidate is a CUDA file
with `extern "C" void solve(...)`, loaded with ctypes, or a Python file with `def solve(...)` (PyTorch,
Triton); either takes the parameters in the signature's order. The judge runs every task through one
interface (Model, get_inputs, get_init_inputs, shape globals), so this module adapts a challenge to it:

- The shape symbols are solve's integer scalars (N, M, K, ...). Each case with integers no earlier case
  had is a shape set: the performance test's is the public set (what is timed), the functional and
  example tests' are the hidden sets. The challenge's atol and rtol are the tolerance.
- A case's "in" and "inout" tensors are the inputs (refilled by the judge like any get_inputs() tensor);
  its "out" buffers and scalars travel as a JSON spec, the one init input.
- Entry (both sides) binds solve's parameters from the spec and the inputs before the timed call: an
  "out" buffer fresh on each call (NaN for floating types), an "inout" tensor a fresh copy of its input,
  so that the inputs the judge checks for mutation are never handed over to be written. Its outputs are
  the "out" and "inout" tensors in the signature's order. Unsigned tensors travel as the signed type of
  their width and reach solve as unsigned views.

Both halves import this module: the judge (adapter) and the sandboxed worker (Entry, the candidate)."""
import ctypes
import json
import os
import sys
import types
import warnings

import torch

import kgate_gpumode
import kgate_output_argument

_INTEGER_CODES = "bBhHiIlLqQ"  # ctypes' type codes of the integer scalars: the shape symbols
_SCALAR_CTYPES = {name: getattr(ctypes, name) for name in (
    "c_bool", "c_byte", "c_ubyte", "c_short", "c_ushort", "c_int", "c_uint", "c_long", "c_ulong",
    "c_longlong", "c_ulonglong", "c_float", "c_double")}
# Unsigned tensors travel as the signed type of their width (the same bits): the arena and the comparison
# take signed integers; Entry hands solve the unsigned view, so the reference sorts and compares as unsigned.
_SIGNED = {torch.uint16: torch.int16, torch.uint32: torch.int32, torch.uint64: torch.int64}
GENERATORS = ("generate_performance_test", "generate_functional_test", "generate_example_test")
ENTRY_NAMES = kgate_output_argument.ENTRY_NAMES  # solve, solution


# ----- both sides: the entry -----

def _fresh_output(param, device):
    dtype = getattr(torch, param["dtype"])
    if "init" in param:  # the challenge hands this buffer cleared (torch.zeros): solve may accumulate into it
        return torch.full(param["shape"], param["init"], dtype=dtype, device=device)
    if dtype.is_floating_point or dtype.is_complex:
        return torch.full(param["shape"], float("nan"), dtype=dtype, device=device)
    if dtype == torch.bool:
        return torch.zeros(param["shape"], dtype=dtype, device=device)
    return torch.full(param["shape"], torch.iinfo(dtype).min, dtype=dtype, device=device)


class Entry(kgate_gpumode.Entry):
    """solve (or the challenge's reference_impl) as a module over the input tensors. prepare() (the
    runtime's own code, before the traced and timed window) binds the parameters; call_prepared() calls
    the function and returns its outputs."""

    def __init__(self, function, spec_json):
        super().__init__(function, spec_json)
        self._params = self._spec["params"]

    def prepare(self, tensors):
        tensors = list(tensors)
        device = tensors[0].device if tensors else torch.device("cpu")
        args, outs = [], []
        for param in self._params:
            role = param["role"]
            if role == "scalar":
                args.append(param["value"])
                continue
            if role == "in":
                tensor = tensors[param["t"]]
            elif role == "inout":
                tensor = tensors[param["t"]].clone()
            else:
                tensor = _fresh_output(param, device)
            if role != "in":
                outs.append(tensor)
            args.append(tensor.view(getattr(torch, param["unsigned"])) if "unsigned" in param else tensor)
        return args, outs

    def call_prepared(self, prepared):
        args, outs = prepared
        self._function(*args)
        return outs[0] if len(outs) == 1 else tuple(outs)


# ----- the worker's side: the candidate -----

def candidate_entry(module):
    """The worker's factory for a Python candidate: Entry(solve, spec)."""
    function = kgate_output_argument.entry_function(module)
    if function is None:
        raise ImportError("the submission defines no solve or solution (LeetGPU's entry point)")
    return lambda spec_json: Entry(function, spec_json)


def _c_call(function, spec_json):
    """solve from a shared library as a Python callable: tensors passed as device pointers, scalars as
    the ctypes types the signature names."""
    argtypes = []
    for param in json.loads(spec_json)["params"]:
        if param["role"] == "scalar":
            argtypes.append(_SCALAR_CTYPES[param["ctype"]])
        else:
            argtypes.append(ctypes.c_void_p)
    function.argtypes = argtypes
    function.restype = None

    def call(*args):
        function(*[a.data_ptr() if isinstance(a, torch.Tensor) else a for a in args])

    return call


def library_entry(library_path):
    """The worker's factory for a CUDA candidate compiled to library_path: Entry over its solve, by the
    symbol the build recorded beside the library (kgate_compile: `extern "C" solve`, else a C++ solve's
    mangled name)."""
    library = ctypes.CDLL(library_path)
    try:
        with open(os.path.join(os.path.dirname(library_path), "entry.json"), encoding="utf-8") as f:
            symbol = json.load(f).get("symbol")
    except (OSError, ValueError):
        symbol = next((name for name in ENTRY_NAMES if hasattr(library, name)), None)
    if not symbol:
        raise ImportError("the submission exports no solve or solution (LeetGPU's entry point)")
    function = getattr(library, symbol)
    return lambda spec_json: Entry(_c_call(function, spec_json), spec_json)


# ----- the judge's side: the adapter -----

def prepare_import(path):
    """Makes `core.challenge_base` importable for a challenge.py: the challenges repository's own module
    where the file lies inside one (a `core/challenge_base.py` in a directory above it), else the
    runtime's stand-in (kgate_challenge_base)."""
    try:
        with open(path, encoding="utf-8") as f:
            if "challenge_base" not in f.read():
                return
    except (OSError, UnicodeDecodeError):
        return
    directory = os.path.dirname(os.path.abspath(path))
    while True:
        if os.path.isfile(os.path.join(directory, "core", "challenge_base.py")):
            if directory not in sys.path:
                sys.path.insert(0, directory)
            return
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
    if "core.challenge_base" in sys.modules:
        return
    import kgate_challenge_base
    core = sys.modules.get("core")
    if core is None:
        core = types.ModuleType("core")
        core.__path__ = []
        sys.modules["core"] = core
    core.challenge_base = kgate_challenge_base
    sys.modules["core.challenge_base"] = kgate_challenge_base


def is_leetgpu_reference(module):
    klass = getattr(module, "Challenge", None)
    return isinstance(klass, type) and all(
        callable(getattr(klass, name, None)) for name in ("reference_impl", "get_solve_signature"))


def _signature(challenge):
    """solve's parameters from get_solve_signature(): [{"name", "role", "ctype"}] with role "in", "out",
    "inout" for tensors and "scalar" for numbers (ctype: the ctypes name, or "Tensor")."""
    params = []
    signature = challenge.get_solve_signature()
    if not isinstance(signature, dict) or not signature:
        raise ImportError("get_solve_signature() returns no parameters: it names solve's parameters in order")
    for name, value in signature.items():
        if not isinstance(value, (tuple, list)) or len(value) != 2 or value[1] not in ("in", "out", "inout"):
            raise ImportError(f"get_solve_signature()[{name!r}] is {value!r}, not (type, \"in\"|\"out\"|\"inout\")")
        kind, role = value
        if kind is torch.Tensor or (isinstance(kind, type) and issubclass(kind, ctypes._Pointer)):
            params.append({"name": name, "role": role, "ctype": "Tensor" if kind is torch.Tensor else "pointer"})
        elif isinstance(kind, type) and kind.__name__ in _SCALAR_CTYPES and issubclass(kind, ctypes._SimpleCData):
            if role != "in":
                raise ImportError(f"solve's scalar parameter {name!r} is {role!r}: a number can only be an input")
            params.append({"name": name, "role": "scalar", "ctype": kind.__name__,
                           "integer": kind._type_ in _INTEGER_CODES})
        else:
            raise ImportError(f"solve's parameter {name!r} is a {getattr(kind, '__name__', kind)!r}: the runtime "
                              "passes tensors (pointers) and numbers")
    return params


def _dtype_name(dtype):
    return str(dtype).removeprefix("torch.")


def _transported(value):
    """(the tensor as the judge and the arena hold it, the unsigned dtype's name or None)."""
    if isinstance(value, torch.Tensor) and value.dtype in _SIGNED:
        return value.view(_SIGNED[value.dtype]), _dtype_name(value.dtype)
    return value, None


def materialize(value, device):
    """A case's value, with a lazy descriptor (RandTensor, RandnTensor, RandIntTensor, FullTensor, OutTensor)
    made into a tensor on `device` from torch's seeded generator."""
    kind = type(value).__name__
    if kind not in ("RandTensor", "RandnTensor", "RandIntTensor", "FullTensor", "OutTensor") or not hasattr(value, "shape"):
        return value
    dtype = getattr(torch, value.dtype) if isinstance(value.dtype, str) else value.dtype
    shape = tuple(value.shape)
    if kind == "RandTensor":
        return torch.empty(shape, dtype=dtype, device=device).uniform_(value.low, value.high)
    if kind == "RandnTensor":
        return torch.empty(shape, dtype=dtype, device=device).normal_(value.mean, value.std)
    if kind == "RandIntTensor":
        return torch.randint(value.low, value.high, shape, dtype=dtype, device=device)
    if kind == "FullTensor":
        return torch.full(shape, value.value, dtype=dtype, device=device)
    # OutTensor: unset, as _cases leaves torch.empty's memory.
    if dtype.is_floating_point or dtype.is_complex:
        return torch.full(shape, float("nan"), dtype=dtype, device=device)
    if dtype == torch.bool:
        return torch.zeros(shape, dtype=dtype, device=device)
    return torch.full(shape, torch.iinfo(dtype).max, dtype=dtype, device=device)


def _cases(challenge, generator):
    """The generator's cases, made with uninitialised memory filled (NaN, the integer maximum): an output
    buffer the challenge allocates with torch.empty then reads as unset, one it clears reads as its value."""
    cases = getattr(challenge, generator, None)
    if not callable(cases):
        return []
    deterministic = torch.are_deterministic_algorithms_enabled()
    warn_only = torch.is_deterministic_algorithms_warn_only_enabled()
    fill = torch.utils.deterministic.fill_uninitialized_memory
    try:
        torch.use_deterministic_algorithms(True, warn_only=True)
        torch.utils.deterministic.fill_uninitialized_memory = True
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            cases = cases()
    finally:
        torch.use_deterministic_algorithms(deterministic, warn_only=warn_only)
        torch.utils.deterministic.fill_uninitialized_memory = fill
    return list(cases) if isinstance(cases, (list, tuple)) else [cases]


def _initial_value(buffer, unsigned=None):
    """The value every element of an "out" buffer starts at where the challenge clears it (zeros, a full
    fill); None where it is left unset (torch.empty, OutTensor: NaN or the integer maximum under
    _cases) or holds no single value. `buffer` is as transported: an unsigned one (`unsigned` names its
    type) in its signed view, where the unsigned maximum reads -1."""
    if buffer.numel() == 0:
        return None
    flat = buffer.reshape(-1)
    first = flat[0]
    if buffer.is_floating_point():
        if bool(torch.isnan(first)) or not bool((flat == first).all()):
            return None
        return float(first)
    if buffer.dtype == torch.bool or not bool((flat == first).all()):
        return None
    if int(first) == (-1 if unsigned else torch.iinfo(buffer.dtype).max):
        return None
    return int(first)


def _integers(params, case, where):
    ints = {}
    for param in params:
        if param["name"] not in case:
            raise ImportError(f"{where} has no value for solve's parameter {param['name']!r}")
        if param["role"] == "scalar" and param["integer"]:
            ints[param["name"]] = int(case[param["name"]])
    return ints


def make_adapter(module, module_name):
    """A module with the judge's interface over a loaded challenge.py."""
    device = "cuda" if torch.cuda.is_available() else "cpu"
    challenge = module.Challenge(device=device)
    params = _signature(challenge)
    names = sorted(p["name"] for p in params if p["role"] == "scalar" and p["integer"])
    # Each shape set: the first case (generator, index) with its integers. The cases' values are drawn
    # again on every draw; only their integers are read here.
    sets, where_from = [], {}
    torch.manual_seed(0)
    for generator in GENERATORS:
        for index, case in enumerate(_cases(challenge, generator)):
            if not isinstance(case, dict):
                raise ImportError(f"{generator}()[{index}] is a {type(case).__name__}, not a dict of solve's arguments")
            ints = _integers(params, case, f"{generator}()[{index}]")
            key = kgate_gpumode._key(ints)
            if key not in where_from:
                where_from[key] = (generator, index)
                sets.append(ints)
    if not sets:
        raise ImportError("the challenge generates no test case (generate_performance_test, "
                          "generate_functional_test, generate_example_test)")
    adapter = types.ModuleType(module_name + "_leetgpu")
    for name in names:
        setattr(adapter, name, sets[0][name])
    specs = {}

    def draw():
        ints = {name: getattr(adapter, name) for name in names}
        generator, index = where_from.get(kgate_gpumode._key(ints), where_from[kgate_gpumode._key(sets[0])])
        case = _cases(challenge, generator)[index]
        return {p["name"]: materialize(case[p["name"]], device) for p in params}

    def spec_json():
        key = kgate_gpumode._key({name: getattr(adapter, name) for name in names})
        if key not in specs:
            data = draw()
            out, count = [], 0
            for param in params:
                value = data[param["name"]]
                if param["role"] == "scalar":
                    if isinstance(value, torch.Tensor):
                        value = value.item()
                    out.append({**param, "value": value})
                    continue
                if not isinstance(value, torch.Tensor):
                    raise TypeError(f"the case's {param['name']!r} is a {type(value).__name__}; solve takes a tensor there")
                value, unsigned = _transported(value)
                entry = {**param, **({"unsigned": unsigned} if unsigned else {})}
                if param["role"] == "out":
                    init = _initial_value(value, unsigned)
                    out.append({**entry, "shape": list(value.shape), "dtype": _dtype_name(value.dtype),
                                **({"init": init} if init is not None else {})})
                else:
                    out.append({**entry, "t": count})
                    count += 1
            specs[key] = json.dumps({"params": out})
        return specs[key]

    def get_inputs():
        data = draw()
        return [_transported(data[p["name"]])[0] for p in params if p["role"] in ("in", "inout")]

    class Model(Entry):
        def __init__(self, spec):
            super().__init__(challenge.reference_impl, spec)

    adapter.Model = Model
    adapter.get_inputs = get_inputs
    adapter.get_init_inputs = lambda: [spec_json()]
    adapter.__kgate_leetgpu__ = {"sets": sets, "names": names,
                                 "tolerance": {"rtol": float(getattr(challenge, "rtol", 1e-5)),
                                               "atol": float(getattr(challenge, "atol", 1e-5))}}
    # No check_implementation: the judge compares with the reference's outputs at the tolerance above.
    adapter.__kgate_reference__ = challenge
    return adapter


def shape_sets(adapter):
    """The judge's shape sets: the performance test's integers public, every other case's hidden, and the
    challenge's own tolerance."""
    facts = adapter.__kgate_leetgpu__
    return json.dumps({"public": facts["sets"][0], "hidden": facts["sets"][1:],
                       "origin": "challenge.py: the performance test public, the functional and example tests hidden",
                       "tolerance": facts["tolerance"], "tolerance_from": "the challenge's atol and rtol"})
