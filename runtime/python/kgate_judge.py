"""The judge's Python half: loads the task's reference under its own module name, builds the reference
model, produces the input structure from get_inputs(), and holds the CUDA arena. Runs in the trusted
kgate process; never sees the candidate."""
import base64
import copy
import functools
import importlib.util
import json
import os
import sys

import torch

# The reference is the exact side of the comparison: no TF32, and no reduced-precision (fp16/bf16)
# reductions in cuBLAS split-K GEMMs (seen on an H100: bf16 N=1023 matmul off by up to 4 ulps).
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
# torch 2.9+ also has per-backend fp32 precision settings; the legacy flags above do not reach cuDNN's
# convolutions there (seen on an H100: fp32 conv2d and bmm references off by TF32-sized errors).
torch.set_float32_matmul_precision("highest")
for _backend in (torch.backends.cuda.matmul, getattr(torch.backends.cudnn, "conv", None), getattr(torch.backends.cudnn, "rnn", None)):
    if _backend is not None and hasattr(_backend, "fp32_precision"):
        _backend.fp32_precision = "ieee"

import kgate_gpumode
import kgate_leetgpu
from kgate_models import DTYPES as _DTYPES, apply_redraw, cast_model, redraw_plan_json  # noqa: F401 - the judge calls them


def load_module(path, module_name, stage_dir=""):
    """The reference as the judge uses it: a KernelBench-style module (Model, get_inputs,
    get_init_inputs), or a GPU MODE problem (generate_input, ref_kernel, task.yml) or a LeetGPU
    challenge.py (Challenge: reference_impl, get_solve_signature) adapted to that interface
    (kgate_gpumode.py, kgate_leetgpu.py). A GPU MODE problem's files (task.py, utils.py) are staged into
    stage_dir first, where its imports find them; a challenge's core.challenge_base is found above it
    or stood in for."""
    task_dir = os.path.dirname(os.path.abspath(path))
    gpumode_task = os.path.isfile(os.path.join(task_dir, "task.yml"))
    missing = []
    if gpumode_task and stage_dir:
        missing = kgate_gpumode.stage_files(task_dir, stage_dir)
        kgate_gpumode.add_to_path(stage_dir)
    kgate_leetgpu.prepare_import(path)
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except ImportError as e:
        if missing:
            raise ImportError(f"{e}; task.yml lists files that are missing: {', '.join(missing)}") from e
        raise
    if all(hasattr(module, name) for name in ("Model", "get_inputs", "get_init_inputs")):
        return module
    if kgate_gpumode.is_gpumode_reference(module):
        return kgate_gpumode.make_adapter(module, task_dir, module_name)
    if kgate_leetgpu.is_leetgpu_reference(module):
        return kgate_leetgpu.make_adapter(module, module_name)
    raise ImportError(f"{path}: the reference defines neither Model, get_inputs and get_init_inputs (KernelBench), "
                      "nor generate_input and ref_kernel (GPU MODE), nor a Challenge with reference_impl and "
                      "get_solve_signature (LeetGPU)")


def _adapted(module):
    """Whether the module is an adapter over a GPU MODE problem or a LeetGPU challenge: its data keeps the
    task's own dtypes, and its sizes come from the task's own cases."""
    return hasattr(module, "__kgate_gpumode__") or hasattr(module, "__kgate_leetgpu__")


def entry_kind(module):
    """What the worker enters the candidate through: "model" (ModelNew, else Model), "custom_kernel" (GPU
    MODE) or "leetgpu" (solve, from a Python file or a CUDA file's extern "C" function)."""
    if hasattr(module, "__kgate_leetgpu__"):
        return "leetgpu"
    return "custom_kernel" if hasattr(module, "__kgate_gpumode__") else "model"


def set_shape_globals(module, shape_json):
    for name, value in json.loads(shape_json).items():
        setattr(module, name, value)


def _plain(value):
    """Init inputs travel to the worker as JSON: numbers, strings, booleans, None and lists of them."""
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    raise TypeError(f"get_init_inputs() returned a {type(value).__name__}; only numbers, strings and lists are supported")


def build_reference(module, init_seed, dtype_name, device):
    """Returns (model, init_inputs_json). The candidate is built from the same seed and init inputs."""
    torch.manual_seed(init_seed)
    init_inputs = [_plain(v) for v in module.get_init_inputs()]
    torch.manual_seed(init_seed)
    model = module.Model(*init_inputs)
    model = cast_model(model, dtype_name, device)
    return model, json.dumps(init_inputs)


def input_structure(module, structure_seed, dtype_name, device):
    """get_inputs() on the run's device, floating tensors in the run's dtype; values are refilled later."""
    torch.manual_seed(structure_seed)
    # Factory calls without a device (torch.rand(N, M)) allocate on the run's device: a multi-GiB
    # get_inputs() costs milliseconds on a GPU instead of seconds on the host.
    with torch.device(device):
        inputs = module.get_inputs()
    dtype = _DTYPES[dtype_name]
    out = []
    for i, value in enumerate(inputs):
        if not isinstance(value, torch.Tensor):
            raise TypeError(f"get_inputs()[{i}] is a {type(value).__name__}; the runtime passes tensors only")
        value = value.to(device)
        # A GPU MODE task's data keeps its own dtypes: generate_input() is the contract (a LeetGPU
        # challenge's cases and solve's signature likewise).
        if value.is_floating_point() and dtype.is_floating_point and not _adapted(module):
            value = value.to(dtype)
        out.append(value.contiguous())
    return out


def prepare_reference(model, inputs):
    """What run_prepared_reference takes, made before the timed window: a GPU MODE reference's data with
    its fresh output buffers (their fills are the runtime's work, as on the candidate's side)."""
    if isinstance(model, kgate_gpumode.Entry):
        return model.prepare(list(inputs))
    return inputs


def _call_prepared(model, prepared):
    with torch.no_grad():
        if isinstance(model, kgate_gpumode.Entry):
            return model.call_prepared(prepared)
        return model(*prepared)


def run_prepared_reference(model, prepared):
    """The reference's output tensors (kgate_gpumode.flatten_output) on prepared data."""
    return kgate_gpumode.flatten_output(_call_prepared(model, prepared), "the reference")[0]


def in_domain(module, model, inputs):
    """Whether the inputs lie in the task's domain, as far as the reference shows: its output on them is
    finite and, for a GPU MODE task, its own check_implementation accepts that output (cholesky's checker
    tests L L^T = A, which no factor of a matrix that is not positive definite passes). Raises what the
    reference raises."""
    prepared = prepare_reference(model, [t.clone() for t in inputs])
    out = _call_prepared(model, prepared)
    for t in kgate_gpumode.flatten_output(out, "the reference")[0]:
        if t.is_floating_point() and not bool(torch.isfinite(t).all()):
            return False
    return not isinstance(model, kgate_gpumode.Entry) or kgate_gpumode.checker_accepts(
        module.__kgate_reference__, prepared, out)


def has_own_checker(module):
    """Whether the task judges outputs with a check_implementation of its own (kgate_gpumode.has_own_checker)."""
    reference = getattr(module, "__kgate_reference__", None)
    return reference is not None and kgate_gpumode.has_own_checker(reference)


def task_check(module, model, inputs, structure_json, outputs):
    """The task's own check_implementation on the call's inputs (fresh copies, with fresh output buffers) and
    the candidate's output rebuilt in the structure it returned (copies of the arena's tensors): (accepted,
    message)."""
    data = prepare_reference(model, [t.clone() for t in inputs])
    output = kgate_gpumode.rebuild(json.loads(structure_json), [t.clone() for t in outputs], None)
    with torch.no_grad():
        return kgate_gpumode.run_checker(module.__kgate_reference__, data, output)


def run_reference(model, inputs):
    """The reference's output tensors, in order (a tuple or list of them flattened)."""
    with torch.no_grad():
        return kgate_gpumode.flatten_output(model(*inputs), "the reference")[0]


def _output_tensors(out):
    """The reference's outputs, in order: one tensor, or a tuple or list of tensors (an output-argument
    entry takes one buffer for each)."""
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    if not outs:
        raise TypeError("the reference returns an empty sequence; an output-argument entry writes its outputs")
    for i, t in enumerate(outs):
        if not isinstance(t, torch.Tensor):
            where = f"output {i}" if len(outs) > 1 else "the output"
            raise TypeError(f"the reference's {where} is a {type(t).__name__}, not a tensor: an output-argument "
                            f"entry writes tensors")
    return outs


def run_reference_fp32(model, inputs):
    """The reference again in fp32: a copy of the model with its (fp16/bf16) parameters and buffers widened,
    the floating inputs widened (both exact), so that only the arithmetic is more precise. The caller
    rounds the output to the run's dtype."""
    wide = copy.deepcopy(model).float()
    widened = [t.float() if t.is_floating_point() else t for t in inputs]
    return run_reference(wide, widened)


def io_bytes(module, init_seed):
    """(bytes of get_inputs(), bytes of the reference's output) at the module's current shape globals,
    floating tensors counted at 4 bytes, measured on the meta device: no memory, no arithmetic. The
    output is None where an op has no meta kernel."""
    if _adapted(module):
        return kgate_gpumode.io_bytes(module)

    def nbytes(t):
        return t.numel() * (4 if t.is_floating_point() else t.element_size())

    with torch.device("meta"):
        torch.manual_seed(init_seed)
        inputs = [t for t in module.get_inputs() if isinstance(t, torch.Tensor)]
        total = sum(nbytes(t) for t in inputs)
        try:
            model = module.Model(*module.get_init_inputs())
            with torch.no_grad():
                out = model(*[t.float() if t.is_floating_point() else t for t in inputs])
            outputs, _ = kgate_gpumode.flatten_output(out, "the reference")
            return total, sum(nbytes(t) for t in outputs)
        except Exception:  # noqa: BLE001 - any op without a meta kernel: the caller estimates
            return total, None


def output_argument_init(module, model, dtype_name, device):
    """The init inputs of an output-argument candidate (kgate_output_argument.Entry) at the module's current
    shape globals, as JSON: the shape and dtype of each of the reference's outputs, found on the meta device
    (no memory), else by one call of the built reference on get_inputs(), and the reference's sizes."""
    import kgate_output_argument
    try:
        with torch.device("meta"), torch.no_grad():
            inputs = [t.to(_DTYPES[dtype_name]) if t.is_floating_point() else t for t in module.get_inputs()]
            outs = _output_tensors(module.Model(*module.get_init_inputs())(*inputs))
    except Exception:  # noqa: BLE001 - an op without a meta kernel: one real call instead
        outs = _output_tensors(run_reference(model, input_structure(module, 0, dtype_name, device)))
    return json.dumps([kgate_output_argument.output_spec(module, outs, _DTYPES[dtype_name])])


def io_bytes_json(module, init_seed):
    return json.dumps(list(io_bytes(module, init_seed)))


@functools.lru_cache(maxsize=None)
def _source_digest(reference_path):
    """sha256 of the reference's source (with a GPU MODE task.yml), the judge's helpers and torch's
    version: read once per run, whatever the keys."""
    import hashlib
    with open(reference_path, "rb") as f:
        text = f.read()
    # A GPU MODE problem's tests are in the task.yml beside it.
    task_yml = os.path.join(os.path.dirname(os.path.abspath(reference_path)), "task.yml")
    if os.path.isfile(task_yml):
        with open(task_yml, "rb") as f:
            text += b"\0" + f.read()
    # The judge's own helpers decide what is kept: a new version of them must not read an old answer.
    for helper in (__file__, kgate_gpumode.__file__, kgate_leetgpu.__file__):
        with open(helper, "rb") as f:
            text += b"\0" + f.read()
    return hashlib.sha256(text + b"\0" + torch.__version__.encode()).hexdigest()


def cached(cache_dir, reference_path, key, compute, *args):
    """compute(*args) (a JSON string), kept under cache_dir/task-facts by the sha256 of the reference's
    source, torch's version and key: what the judge learns about a task on the meta device (its shape
    symbols, its memory needs) costs seconds the first time (the meta kernels' imports) and nothing for
    the next candidate on the same task. Only the judge writes there; the worker cannot reach it."""
    import hashlib
    import os
    digest = hashlib.sha256(f"{_source_digest(reference_path)}\0{key}".encode()).hexdigest()
    folder = os.path.join(cache_dir, "task-facts")
    path = os.path.join(folder, digest + ".json")
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError:
        pass
    value = compute(*args)
    try:
        os.makedirs(folder, exist_ok=True)
        temporary = f"{path}.{os.getpid()}.tmp"
        with open(temporary, "w", encoding="utf-8") as f:
            f.write(value)
        os.replace(temporary, path)
    except OSError:
        pass  # a cache that cannot be written costs time, not correctness
    return value


def _meta_shapes(module):
    """get_inputs()' tensor shapes and get_init_inputs()' values at the module's current globals."""
    with torch.device("meta"):
        shapes = [tuple(t.shape) if isinstance(t, torch.Tensor) else repr(t) for t in module.get_inputs()]
    return shapes, repr(module.get_init_inputs())


def _reference_accepts(module):
    try:
        with torch.device("meta"):
            inputs = [t.float() if isinstance(t, torch.Tensor) and t.is_floating_point() else t for t in module.get_inputs()]
            with torch.no_grad():
                module.Model(*module.get_init_inputs())(*inputs)
        return True
    except Exception:  # noqa: BLE001 - any failure: the reference does not take this shape set
        return False


def generalization_shapes(module):
    """Shape sets for a task without a manifest, as JSON: {"public": {...}, "hidden": [{...}, ...]}.
    The shape symbols are the module-level ints (not bools) that change get_inputs()' shapes and leave
    get_init_inputs() as it is (the model's own sizes stay the task's). Hidden sets: every symbol halved,
    then halved and made odd; each kept only where the reference runs on it (meta device, no memory).
    A GPU MODE task's sets are its task.yml tests, a LeetGPU challenge's its cases."""
    if hasattr(module, "__kgate_gpumode__"):
        return kgate_gpumode.shape_sets(module)
    if hasattr(module, "__kgate_leetgpu__"):
        return kgate_leetgpu.shape_sets(module)
    base_shapes, base_init = _meta_shapes(module)
    symbols = {}
    for name, value in sorted(vars(module).items()):
        if name.startswith("_") or not isinstance(value, int) or isinstance(value, bool) or value < 2:
            continue
        setattr(module, name, value // 2)
        try:
            shapes, init = _meta_shapes(module)
            if shapes != base_shapes and init == base_init:
                symbols[name] = value
        except Exception:  # noqa: BLE001 - a global get_inputs() cannot vary
            pass
        finally:
            setattr(module, name, value)
    hidden = []
    for variant in ({k: v // 2 for k, v in symbols.items()}, {k: (v // 2) | 1 for k, v in symbols.items()}):
        if not variant or variant == symbols or variant in hidden:
            continue
        for k, v in variant.items():
            setattr(module, k, v)
        if _reference_accepts(module):
            hidden.append(variant)
        for k, v in symbols.items():
            setattr(module, k, v)
    return json.dumps({"public": symbols, "hidden": hidden})


def wait_for_memory(nbytes, timeout_s):
    """Waits until the GPU has nbytes free (other runs finishing), up to timeout_s; whether it does."""
    import time
    deadline = time.monotonic() + timeout_s
    release_cuda_memory()  # this process's own blocks (an earlier attempt's) are not others' use
    while True:
        free, total = torch.cuda.mem_get_info()
        if free >= nbytes or nbytes > total:
            return free >= nbytes
        if time.monotonic() >= deadline:
            return False
        time.sleep(1.0)


# The CUDA IPC reference counters of the arenas this process shared with workers: torch's _share_cuda_
# sets a slot of a shared-memory file to 1, and frees the block only once the consumer has counted it
# back down, which a killed worker never does (nor can a hostile one be trusted to). Between runs, when
# every arena's worker has been reaped, release_cuda_memory zeroes those slots so that the blocks go.
_shared_arenas = []


def zero_ipc_counter(handle, offset, shm_dir="/dev/shm"):
    """Zeroes one slot of a CUDA IPC reference counter file (at::RefcountedMapAllocator: a 64-byte
    header, then uint64 slots; `handle` is the shm name, `offset` the slot); whether it was there."""
    import mmap
    import struct
    name = handle.decode() if isinstance(handle, bytes) else str(handle)
    at = 64 + 8 * int(offset)
    try:
        with open(os.path.join(shm_dir, name.lstrip("/")), "r+b") as f, mmap.mmap(f.fileno(), 0) as m:
            if at + 8 > len(m):
                return False
            struct.pack_into("<Q", m, at, 0)
            return True
    except (OSError, ValueError):
        return False


def release_cuda_memory():
    """Gives back what this process holds of finished runs: unreachable tensors, the arenas it shared
    with workers that have ended (their IPC counters zeroed), and the blocks the caching allocator keeps.
    Called only between runs: no worker then maps an arena."""
    import gc
    gc.collect()
    if not torch.cuda.is_initialized():
        return
    torch.cuda.synchronize()
    for handle, offset in _shared_arenas:
        zero_ipc_counter(handle, offset)
    _shared_arenas.clear()
    torch.cuda.ipc_collect()
    torch.cuda.empty_cache()


def make_cuda_arena(nbytes):
    """A CUDA buffer the worker maps through CUDA IPC (cudaIpcGetMemHandle, via torch's storage sharing).
    nbytes 0: 8 GiB or a quarter of the free GPU memory, the smaller."""
    if nbytes == 0:
        free, _ = torch.cuda.mem_get_info()
        nbytes = min(8 << 30, free // 4)
    arena = torch.empty(nbytes, dtype=torch.uint8, device="cuda")
    shared = arena.untyped_storage()._share_cuda_()
    _shared_arenas.append((shared[4], shared[5]))  # the reference counter's file and slot
    encoded = [base64.b64encode(v).decode() if isinstance(v, bytes) else v for v in shared]
    return arena, json.dumps(encoded)


def synchronize(device):
    if device.startswith("cuda"):
        torch.cuda.synchronize()


def device_name():
    return torch.cuda.get_device_name()


def compile_model(model):
    """torch.compile of the reference (`kgate run --compare-compile`): the optional second baseline."""
    return torch.compile(model)
