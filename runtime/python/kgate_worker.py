"""The worker's Python half: routes load_inline/load to the judge's compile cache, imports the candidate
under a private module name, builds its entry (ModelNew, Model, GPU MODE's custom_kernel, an
output-argument solve), calls it, and gathers the facts about its output. Runs in the sandboxed worker, next to untrusted code: the judge
re-checks everything it can from the arena."""
import base64
import importlib.machinery
import importlib.util
import json
import os
import struct
import sys

import torch
import torch.utils.cpp_extension as cpp_extension

from kgate_models import apply_redraw, cast_model  # noqa: F401 - the worker calls apply_redraw
_control = {"read": -1, "write": -1}


class HarnessFault(Exception):
    """A failure in the runtime's own code, in a step where no code of the submission runs (the import
    path the harness gives, a GPU MODE entry's output buffers): the worker marks its error message as
    the runtime's. The judge makes that harness-error before the submission is loaded; after it, the
    worker's word is not trusted (the candidate could raise this too), and the mark only names whose
    step failed."""


def _harness_step(what, function, *args):
    try:
        return function(*args)
    except Exception as e:  # noqa: BLE001 - every failure of the runtime's own step is the harness's
        raise HarnessFault(f"{what}: {type(e).__name__}: {e}") from e


def _send(message):
    data = json.dumps(message).encode()
    os.write(_control["write"], struct.pack("<I", len(data)) + data)


def _read_exact(n):
    chunks = b""
    while len(chunks) < n:
        chunk = os.read(_control["read"], n - len(chunks))
        if not chunk:
            raise RuntimeError("kgate: the judge closed the control channel")
        chunks += chunk
    return chunks


def _receive():
    (n,) = struct.unpack("<I", _read_exact(4))
    return json.loads(_read_exact(n))


def _as_list(value):
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return list(value)


def _library_through_judge(request):
    """The worker may not exec nvcc or ninja: the judge compiles outside the sandbox and returns the .so's
    path."""
    _send({"op": "compile", "request": request})
    reply = _receive()
    if reply.get("op") != "compiled":
        raise RuntimeError("kgate compile cache: " + reply.get("message", "compilation failed"))
    return reply["so"]


def _compile_through_judge(request):
    """A load_inline/load extension, compiled by the judge, imported here."""
    path = _library_through_judge(request)
    loader = importlib.machinery.ExtensionFileLoader(request["name"], path)
    spec = importlib.util.spec_from_file_location(request["name"], path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def _load_inline(name, cpp_sources, cuda_sources=None, sycl_sources=None, functions=None, extra_cflags=None,
                 extra_cuda_cflags=None, extra_sycl_cflags=None, extra_ldflags=None, extra_include_paths=None,
                 build_directory=None, verbose=False, with_cuda=None, with_sycl=None, is_python_module=True,
                 with_pytorch_error_handling=True, keep_intermediates=True, use_pch=False, no_implicit_headers=False):
    if functions is not None and not isinstance(functions, (str, list, tuple, dict)):
        raise TypeError("functions must be a string, a list or a dict")
    return _compile_through_judge({
        "kind": "load_inline", "name": name, "cpp_sources": _as_list(cpp_sources),
        "cuda_sources": _as_list(cuda_sources),
        "functions": functions if isinstance(functions, dict) else _as_list(functions),
        "extra_cflags": _as_list(extra_cflags), "extra_cuda_cflags": _as_list(extra_cuda_cflags),
        "extra_ldflags": _as_list(extra_ldflags), "extra_include_paths": _as_list(extra_include_paths),
        "with_cuda": with_cuda, "with_pytorch_error_handling": with_pytorch_error_handling,
    })


def _load(name, sources, extra_cflags=None, extra_cuda_cflags=None, extra_sycl_cflags=None, extra_ldflags=None,
          extra_include_paths=None, build_directory=None, verbose=False, with_cuda=None, with_sycl=None,
          is_python_module=True, is_standalone=False, keep_intermediates=True):
    texts = {}
    for path in _as_list(sources):
        with open(path, encoding="utf-8") as f:
            texts[os.path.basename(path)] = f.read()
    return _compile_through_judge({
        "kind": "load", "name": name, "sources": texts,
        "extra_cflags": _as_list(extra_cflags), "extra_cuda_cflags": _as_list(extra_cuda_cflags),
        "extra_ldflags": _as_list(extra_ldflags), "extra_include_paths": _as_list(extra_include_paths),
        "with_cuda": with_cuda,
    })


def install_compile_hook(read_fd, write_fd):
    _control["read"], _control["write"] = read_fd, write_fd
    cpp_extension.load_inline = _load_inline
    cpp_extension.load = _load


def _cuda_library_entry(path):
    """A LeetGPU CUDA submission: the judge builds the file into a shared library (nvcc -shared, as the
    harness does) and the entry calls its solve through ctypes (extern "C", or a C++ solve by its mangled
    name)."""
    import hashlib
    import kgate_leetgpu
    with open(path, encoding="utf-8") as f:
        text = f.read()
    name = "kgate_solution_" + hashlib.sha256(text.encode()).hexdigest()[:16]
    source = "solution" + (os.path.splitext(path)[1] or ".cu")
    library = _library_through_judge({"kind": "shared_library", "name": name, "sources": {source: text}})
    return kgate_leetgpu.library_entry(library)


def import_candidate(path, module_name, entry="model", paths=()):
    """Imports the submission and returns its entry as a factory of modules over the inputs: for entry
    "model" its ModelNew class (KernelBench), else its Model (harnesses that keep the reference's class
    name); for "custom_kernel" GPU MODE's function wrapped by kgate_gpumode.Entry; for "output-argument"
    its solve (or solution) wrapped by kgate_output_argument.Entry; for "leetgpu" its solve wrapped by
    kgate_leetgpu.Entry, from a Python file or a CUDA file built into a library. `paths`: directories
    the harness puts beside the submission (a GPU MODE problem's task.py and utils.py)."""
    if entry == "leetgpu" and not path.endswith(".py"):
        return _cuda_library_entry(path)
    for directory in paths:
        if directory not in sys.path:
            sys.path.insert(0, directory)
    # Modules the submission brings beside itself (a helper file of a multi-file submission) import from
    # its own directory, searched last: a sibling file cannot shadow the standard library, torch, the
    # harness's task.py or the runtime's own helpers.
    own_directory = os.path.dirname(os.path.abspath(path))
    if own_directory not in sys.path:
        sys.path.append(own_directory)
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise HarnessFault(f"the runtime cannot load {path} as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    if entry == "custom_kernel":
        import kgate_gpumode
        return kgate_gpumode.candidate_entry(module)
    if entry == "output-argument":
        import kgate_output_argument
        return kgate_output_argument.candidate_entry(module)
    if entry == "leetgpu":
        import kgate_leetgpu
        return kgate_leetgpu.candidate_entry(module)
    for name in ("ModelNew", "Model"):
        if isinstance(getattr(module, name, None), type):
            return getattr(module, name)
    raise ImportError("the submission defines no ModelNew (KernelBench) and no Model class")


def build(factory, init_seed, init_inputs_json, dtype_name, device):
    torch.manual_seed(init_seed)
    model = factory(*json.loads(init_inputs_json))
    return cast_model(model, dtype_name, device)


def _runtime_entry(model):
    """Whether the model is exactly one of the runtime's own entry classes (a GPU MODE, output-argument or
    LeetGPU function wrapped by the runtime), never a subclass the candidate made."""
    import kgate_gpumode
    import kgate_leetgpu
    import kgate_output_argument
    return type(model) in (kgate_gpumode.Entry, kgate_output_argument.Entry, kgate_leetgpu.Entry)


def prepare_call(model, inputs):
    """What the call takes, made before the traced and timed window: for a GPU MODE or output-argument
    entry its data with fresh output buffers; otherwise the inputs as they are."""
    if _runtime_entry(model):
        # Entry.prepare is the runtime's own code on the task's data: no candidate code runs in it.
        return _harness_step("preparing the call's data", model.prepare, list(inputs))
    return inputs


def call(model, prepared):
    """forward on the inputs (or a GPU MODE entry's function on its prepared data). No synchronize here:
    on CUDA the worker records the end of the call on the stream, synchronizes the device and records it
    again (runtime/cuda/gpu_timer.h)."""
    with torch.no_grad():
        return model.call_prepared(prepared) if _runtime_entry(model) else model(*prepared)


def output_leaves(out):
    """(the output's tensors, its structure as JSON), flattened as the judge flattens the reference's."""
    import kgate_gpumode
    tensors, structure = kgate_gpumode.flatten_output(out, "the submission")
    return list(tensors), structure


def _dense(t):
    """Non-overlapping and dense in some order of the dimensions: sorted by stride, each stride is the
    product of the sizes below it (a contiguous or column-major tensor; not an expanded or sliced one)."""
    step = 1
    for stride, size in sorted((s, n) for s, n in zip(t.stride(), t.shape) if n != 1):
        if stride != step:
            return False
        step *= size
    return True


def _overridden_methods(value):
    names = set(vars(value).keys()) if hasattr(value, "__dict__") else set()
    for klass in type(value).__mro__:
        if klass is torch.Tensor or klass is torch._C.TensorBase or klass is object:
            break
        names.update(n for n, v in vars(klass).items() if callable(v) or isinstance(v, (property, classmethod, staticmethod)))
    return sorted(names)


def output_facts(out):
    """What the judge cannot see in the arena copy: the Python type and the storage the output lived in."""
    kind = type(out)
    default_tf = torch.Tensor.__torch_function__
    tf = getattr(kind, "__torch_function__", default_tf)
    overrides = getattr(tf, "__func__", tf) is not getattr(default_tf, "__func__", default_tf)
    overrides = overrides or getattr(kind, "__torch_dispatch__", None) not in (None, torch._C._disabled_torch_dispatch_impl)
    storage = out.untyped_storage()
    begin = storage.data_ptr()
    return {
        "exact_tensor_type": kind is torch.Tensor,
        "overridden_methods": _overridden_methods(out),
        "has_torch_function_override": bool(overrides),
        "is_contiguous": out.is_contiguous(),
        "is_dense": _dense(out),
        "owns_storage_exactly": out.storage_offset() == 0 and storage.nbytes() == out.numel() * out.element_size(),
        "storage_begin": begin,
        "storage_end": begin + storage.nbytes(),
    }


def synchronize_device():
    torch.cuda.synchronize()


def _loaded_libcuda_dir():
    """The directory of the libcuda.so.1 this process has mapped (the driver's, wherever it is mounted)."""
    with open("/proc/self/maps") as maps:
        for line in maps:
            path = line.split()[-1] if line.strip() else ""
            if os.path.basename(path).startswith("libcuda.so"):
                return os.path.dirname(path)
    return None


def prepare_cuda():
    """Before seccomp: the CUDA context, and Triton's driver utilities (built with the C compiler)."""
    torch.cuda.init()
    torch.empty(1, device="cuda")
    if "TRITON_LIBCUDA_PATH" not in os.environ:
        # Triton would otherwise run `ldconfig -p`, which is not on the toolchain allow-list.
        directory = _loaded_libcuda_dir()
        if directory:
            os.environ["TRITON_LIBCUDA_PATH"] = directory
    try:
        import triton
    except ImportError:
        return
    triton.runtime.driver.active.get_current_device()


def open_cuda_arena(encoded_json):
    shared = [base64.b64decode(v) if isinstance(v, str) else v for v in json.loads(encoded_json)]
    storage = torch.UntypedStorage._new_shared_cuda(*shared)
    return torch.empty(0, dtype=torch.uint8, device=storage.device).set_(storage)
