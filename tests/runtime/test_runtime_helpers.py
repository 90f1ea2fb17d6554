"""The runtime's Python helpers on the CPU: the LeetGPU adapter (kgate_leetgpu: signature binding, shape
sets, output buffers, unsigned tensors, C entry calls) and the compile child's pipe (kgate_compile)."""
import ctypes
import json
import os
import pathlib
import subprocess
import sys
import textwrap

import pytest
import torch

SOURCE = pathlib.Path(os.environ.get("KGATE_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
HELPERS = SOURCE / "runtime" / "python"
sys.path.insert(0, str(HELPERS))

import kgate_judge  # noqa: E402
import kgate_leetgpu  # noqa: E402

# A challenge of the shapes real ones have: a cleared "out" (torch.zeros), an unset one (torch.empty in the
# functional cases, OutTensor in the performance case), an unsigned "in", an "inout", and two sizes.
CHALLENGE = textwrap.dedent('''
    import ctypes
    import torch
    from core.challenge_base import ChallengeBase, OutTensor, RandIntTensor


    class Challenge(ChallengeBase):
        atol = 1e-3
        rtol = 2e-3
        seen = []

        def reference_impl(self, keys, counts, doubled, data, N, B):
            Challenge.seen.append((keys.dtype, data.data_ptr()))
            counts.add_(torch.bincount(keys.to(torch.int64) % B, minlength=B).to(torch.int32))
            doubled.copy_(data * 2)
            data.mul_(-1)

        def get_solve_signature(self):
            return {"keys": (ctypes.POINTER(ctypes.c_uint), "in"), "counts": (ctypes.POINTER(ctypes.c_int), "out"),
                    "doubled": (ctypes.POINTER(ctypes.c_float), "out"), "data": (ctypes.POINTER(ctypes.c_float), "inout"),
                    "N": (ctypes.c_int, "in"), "B": (ctypes.c_int, "in")}

        def _case(self, n, b):
            return {"keys": torch.randint(0, 2**32 - 1, (n,), dtype=torch.int64).to(torch.uint32),
                    "counts": torch.zeros(b, dtype=torch.int32), "doubled": torch.empty(n),
                    "data": torch.randn(n), "N": n, "B": b}

        def generate_example_test(self):
            return self._case(4, 2)

        def generate_functional_test(self):
            return [self._case(9, 3), self._case(4, 2), self._case(16, 5)]

        def generate_performance_test(self):
            return {"keys": RandIntTensor((64,), 0, 1000, dtype="uint32"), "counts": torch.zeros(8, dtype=torch.int32),
                    "doubled": OutTensor((64,)), "data": torch.randn(64), "N": 64, "B": 8}
''')


@pytest.fixture()
def adapter(tmp_path):
    path = tmp_path / "leetgpu_mixed" / "challenge.py"
    path.parent.mkdir()
    path.write_text(CHALLENGE, encoding="utf-8")
    return kgate_judge.load_module(str(path), "kgate_test_leetgpu_mixed")


def test_challenge_is_adapted_with_the_cases_as_shape_sets(adapter):
    assert kgate_judge.entry_kind(adapter) == "leetgpu"
    sets = json.loads(kgate_judge.generalization_shapes(adapter))
    assert sets["public"] == {"B": 8, "N": 64}  # the performance case
    assert sets["hidden"] == [{"B": 3, "N": 9}, {"B": 2, "N": 4}, {"B": 5, "N": 16}]  # N=4 once
    assert sets["tolerance"] == {"rtol": 2e-3, "atol": 1e-3}


def test_spec_binds_inputs_outputs_and_scalars_in_signature_order(adapter):
    spec = json.loads(adapter.get_init_inputs()[0])["params"]
    assert [(p["name"], p["role"]) for p in spec] == [
        ("keys", "in"), ("counts", "out"), ("doubled", "out"), ("data", "inout"), ("N", "scalar"), ("B", "scalar")]
    keys, counts, doubled, data, n, b = spec
    assert keys["unsigned"] == "uint32" and keys["t"] == 0 and data["t"] == 1
    assert counts["init"] == 0 and counts["dtype"] == "int32"  # torch.zeros: solve may accumulate
    assert "init" not in doubled  # OutTensor: unset, poisoned on every call
    assert (n["value"], b["value"]) == (64, 8)


def test_reference_call_keeps_the_inputs_and_returns_out_and_inout(adapter):
    inputs = adapter.get_inputs()
    assert [t.dtype for t in inputs] == [torch.int32, torch.float32]  # uint32 travels as int32
    before = [t.clone() for t in inputs]
    model = adapter.Model(*adapter.get_init_inputs())
    counts, doubled, negated = model(*inputs)
    assert adapter.__kgate_reference__.seen[-1][0] == torch.uint32  # the reference sees the unsigned view
    assert all(torch.equal(a, b) for a, b in zip(before, inputs))  # the inout got a copy
    assert torch.equal(doubled, before[1] * 2) and torch.equal(negated, -before[1])
    keys = before[0].view(torch.uint32).to(torch.int64)
    assert torch.equal(counts.long(), torch.bincount(keys % 8, minlength=8))


def test_unset_outputs_are_poisoned_on_every_call(adapter):
    entry = kgate_leetgpu.Entry(lambda *args: None, adapter.get_init_inputs()[0])
    counts, doubled, data = entry(*adapter.get_inputs())
    assert bool(torch.isnan(doubled).all())  # nothing wrote it
    assert bool((counts == 0).all())  # cleared, as the challenge hands it


def test_a_c_solve_gets_device_pointers_and_typed_scalars(adapter):
    calls = []
    prototype = ctypes.CFUNCTYPE(None, *[ctypes.c_void_p] * 4, ctypes.c_int, ctypes.c_int)
    function = prototype(lambda *args: calls.append(args))
    spec = adapter.get_init_inputs()[0]
    entry = kgate_leetgpu.Entry(kgate_leetgpu._c_call(function, spec), spec)
    inputs = adapter.get_inputs()
    args, outs = entry.prepare(inputs)
    entry.call_prepared((args, outs))
    assert calls[0][0] == inputs[0].data_ptr()  # an "in" tensor is passed as it is
    assert calls[0][3] == outs[2].data_ptr() != inputs[1].data_ptr()  # the inout's copy
    assert calls[0][4:] == (64, 8)


def test_python_candidates_bind_solve_or_solution(tmp_path):
    module = type(sys)("candidate")
    with pytest.raises(ImportError, match="solve or solution"):
        kgate_leetgpu.candidate_entry(module)
    module.solution = lambda *args: None
    assert kgate_leetgpu.candidate_entry(module)


def test_a_parameter_the_runtime_cannot_pass_is_a_clear_error(tmp_path):
    path = tmp_path / "challenge.py"
    path.write_text(CHALLENGE.replace('"B": (ctypes.c_int, "in")', '"B": (torch.nn.Module, "in")'), encoding="utf-8")
    with pytest.raises(ImportError, match="parameter 'B' is a 'Module'"):
        kgate_judge.load_module(str(path), "kgate_test_leetgpu_module")


def test_compile_child_pipe_is_utf8_under_an_ascii_locale(tmp_path):
    # A CUDA source's comments may hold any character; under a C locale, a text pipe in the locale's
    # codec fails before the build starts (seen on a GPU machine with no LANG).
    script = textwrap.dedent(f'''
        import json, sys
        sys.path.insert(0, {str(HELPERS)!r})
        import kgate_compile
        request = {{"kind": "no-such-kind", "name": "x", "sources": {{"x.cu": "// na\\u00efve \\u2014 \\u03a9"}}}}
        ok, log = kgate_compile.build_in_child(sys.executable, json.dumps(request, ensure_ascii=False), {str(tmp_path)!r})
        print(ok, "unknown compile request kind" in log)
    ''')
    env = {**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0",
           "PYTHONIOENCODING": ""}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "True"]


def test_ipc_counter_of_a_finished_run_is_zeroed_in_its_slot_only(tmp_path):
    # torch's reference-counter file: a 64-byte header (the mapping's own count), then uint64 slots; the
    # slot the worker never counted back down is zeroed, and its neighbours and the header are kept.
    import struct
    path = tmp_path / "torch_123_456_0"
    path.write_bytes(struct.pack("<16s", b"header") + bytes(48) + struct.pack("<4Q", 1, 1, 7, 1))
    assert kgate_judge.zero_ipc_counter(b"/torch_123_456_0", 1, shm_dir=str(tmp_path))
    data = path.read_bytes()
    assert data[:6] == b"header"
    assert struct.unpack_from("<4Q", data, 64) == (1, 0, 7, 1)
    # A slot past the file, or a file that is gone, is no error: nothing to give back.
    assert not kgate_judge.zero_ipc_counter(b"/torch_123_456_0", 4, shm_dir=str(tmp_path))
    assert not kgate_judge.zero_ipc_counter("/torch_gone", 0, shm_dir=str(tmp_path))
    assert struct.unpack_from("<4Q", path.read_bytes(), 64) == (1, 0, 7, 1)


def test_release_cuda_memory_without_cuda_keeps_the_recorded_counters():
    # On a CPU-only judge there is no CUDA state to give back, and no counter is touched.
    kgate_judge._shared_arenas.append((b"/torch_none", 0))
    try:
        kgate_judge.release_cuda_memory()
        assert kgate_judge._shared_arenas == [(b"/torch_none", 0)]
    finally:
        kgate_judge._shared_arenas.clear()
