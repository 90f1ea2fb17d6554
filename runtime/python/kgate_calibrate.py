"""kgate calibrate's measurements (embedded by the kgate process; runtime/calibrate.cpp owns the cache).

identify(index): the GPU's name, driver and clocks (NVML through ctypes, the driver API as fallback), the
cache key's parts. measure(index, repeats): the measured peaks, each the median rate of `repeats` timed
runs after warm-up, timed with CUDA events on the current stream:
  d2d_bandwidth  bytes/s of a device-to-device copy of 1 GiB (read + write counted, as bandwidthTest does)
  fp32_fma       FLOP/s of an FMA-bound elementwise kernel (NVRTC through torch's jiterator: 4 independent
                 chains of 2,048 dependent FMAs per element, 2 FLOP each)
  matmul_tf32/bf16/fp16  FLOP/s of an 8192^3 GEMM through cuBLAS (torch.matmul; TF32 allowed for that one only)
  matmul_fp8     FLOP/s of an 8192^3 e4m3 GEMM through cuBLASLt (torch._scaled_mm), where the GPU has FP8
  matmul_int8    OP/s of an 8192^3 int8 GEMM with int32 results through cuBLASLt (torch._int_mm)
A peak the GPU or this torch cannot measure is left out, with the reason in `skipped`.
"""
import ctypes
import statistics

import torch

_FMA_CHAINS = 4
_FMA_STEPS = 2048
_FMA_CODE = """
template <typename T> T kgate_fma_chain(T x) {
  T a = x, b = x + T(1), c = x + T(2), d = x + T(3);
  #pragma unroll 16
  for (int i = 0; i < %d; ++i) {
    a = a * T(0.999) + T(0.001);
    b = b * T(0.999) + T(0.001);
    c = c * T(0.999) + T(0.001);
    d = d * T(0.999) + T(0.001);
  }
  return a + b + c + d;
}
""" % _FMA_STEPS


def _nvml_identity(props):
    """(driver, sm_clock_mhz, mem_clock_mhz) from NVML: the application clocks, the ones the GPU is set to."""
    nvml = ctypes.CDLL("libnvidia-ml.so.1")
    if nvml.nvmlInit_v2() != 0:
        raise RuntimeError("nvmlInit failed")
    try:
        version = ctypes.create_string_buffer(96)
        if nvml.nvmlSystemGetDriverVersion(version, 96) != 0:
            raise RuntimeError("nvmlSystemGetDriverVersion failed")
        handle = ctypes.c_void_p()
        bus_id = b"%08X:%02X:%02X.0" % (props.pci_domain_id, props.pci_bus_id, props.pci_device_id)
        if nvml.nvmlDeviceGetHandleByPciBusId_v2(bus_id, ctypes.byref(handle)) != 0:
            raise RuntimeError("nvmlDeviceGetHandleByPciBusId failed for " + bus_id.decode())
        clocks = []
        for clock_type in (1, 2):  # NVML_CLOCK_SM, NVML_CLOCK_MEM
            mhz = ctypes.c_uint()
            if nvml.nvmlDeviceGetApplicationsClock(handle, clock_type, ctypes.byref(mhz)) != 0:
                if nvml.nvmlDeviceGetMaxClockInfo(handle, clock_type, ctypes.byref(mhz)) != 0:
                    raise RuntimeError("no clock from NVML")
            clocks.append(int(mhz.value))
        return version.value.decode(), clocks[0], clocks[1]
    finally:
        nvml.nvmlShutdown()


def _driver_identity(index):
    """The fallback without NVML: the kernel module's version and the driver API's maximum clocks."""
    driver = "unknown"
    try:
        with open("/proc/driver/nvidia/version") as f:
            for word in f.readline().split():
                if word.count(".") >= 1 and word.replace(".", "").isdigit():
                    driver = word
                    break
    except OSError:
        pass
    cuda = ctypes.CDLL("libcuda.so.1")
    cuda.cuInit(0)
    device = ctypes.c_int()
    cuda.cuDeviceGet(ctypes.byref(device), index)
    clocks = []
    for attribute in (13, 36):  # CU_DEVICE_ATTRIBUTE_CLOCK_RATE, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE (kHz)
        khz = ctypes.c_int()
        cuda.cuDeviceGetAttribute(ctypes.byref(khz), attribute, device)
        clocks.append(max(1, khz.value // 1000))
    return driver, clocks[0], clocks[1]


def identify(index=0):
    if not torch.cuda.is_available():
        raise RuntimeError("no CUDA device: kgate calibrate measures a GPU")
    props = torch.cuda.get_device_properties(index)
    try:
        driver, sm, mem = _nvml_identity(props)
        source = "nvml"
    except (OSError, RuntimeError, AttributeError):
        driver, sm, mem = _driver_identity(index)
        source = "driver"
    return {"gpu": props.name, "driver": driver, "sm_clock_mhz": sm, "mem_clock_mhz": mem,
            "clock_source": source, "capability": "%d.%d" % (props.major, props.minor),
            "l2_bytes": int(getattr(props, "L2_cache_size", 0)), "sms": props.multi_processor_count}


def _median_seconds(fn, repeats, warmup=3):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeats):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / 1e3)
    return statistics.median(times)


def _d2d(repeats):
    n = 1 << 30
    src = torch.empty(n, dtype=torch.uint8, device="cuda").fill_(1)
    dst = torch.empty_like(src)
    seconds = _median_seconds(lambda: dst.copy_(src), repeats)
    return 2 * n / seconds


def _fp32_fma(repeats):
    fn = torch.cuda.jiterator._create_jit_fn(_FMA_CODE)
    sms = torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count
    n = sms * 2048 * 16
    x = torch.rand(n, device="cuda")
    out = fn(x)  # compiles once, outside the timing
    if not torch.isfinite(out).all():
        raise RuntimeError("the FMA kernel produced non-finite values")
    seconds = _median_seconds(lambda: fn(x), repeats)
    return n * _FMA_CHAINS * _FMA_STEPS * 2 / seconds


def _gemm(dtype, repeats, n=8192):
    a = torch.randn(n, n, device="cuda").to(dtype)
    b = torch.randn(n, n, device="cuda").to(dtype)
    seconds = _median_seconds(lambda: torch.matmul(a, b), repeats)
    return 2 * n ** 3 / seconds


def _tf32(repeats):
    matmul = torch.backends.cuda.matmul
    saved = (matmul.allow_tf32, getattr(matmul, "fp32_precision", None))
    try:
        matmul.allow_tf32 = True
        if saved[1] is not None:
            matmul.fp32_precision = "tf32"
        return _gemm(torch.float32, repeats)
    finally:
        matmul.allow_tf32 = saved[0]
        if saved[1] is not None:
            matmul.fp32_precision = saved[1]


def _fp8(repeats, n=8192):
    if not hasattr(torch, "float8_e4m3fn") or torch.cuda.get_device_capability() < (8, 9):
        raise RuntimeError("no FP8 tensor cores (compute capability below 8.9)")
    a = torch.randn(n, n, device="cuda").to(torch.float8_e4m3fn)
    b = torch.randn(n, n, device="cuda").to(torch.float8_e4m3fn).t()  # column-major, as cuBLASLt wants
    one = torch.tensor(1.0, device="cuda")
    seconds = _median_seconds(lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16), repeats)
    return 2 * n ** 3 / seconds


def _int8(repeats, n=8192):
    a = torch.randint(-8, 8, (n, n), dtype=torch.int8, device="cuda")
    # Column-major B (cuBLASLt's IMMA kernels want the "TN" layout; row-major B ran at 6% of peak on an H100).
    b = torch.randint(-8, 8, (n, n), dtype=torch.int8, device="cuda").t()
    seconds = _median_seconds(lambda: torch._int_mm(a, b), repeats)
    return 2 * n ** 3 / seconds


def measure(index=0, repeats=20):
    torch.cuda.set_device(index)
    steps = [("d2d_bandwidth", _d2d), ("fp32_fma", _fp32_fma), ("matmul_tf32", _tf32),
             ("matmul_bf16", lambda r: _gemm(torch.bfloat16, r)), ("matmul_fp16", lambda r: _gemm(torch.float16, r)),
             ("matmul_fp8", _fp8), ("matmul_int8", _int8)]
    measured, skipped = {}, {}
    for name, step in steps:
        try:
            measured[name] = float(step(repeats))
        except (RuntimeError, NotImplementedError, AttributeError) as error:
            skipped[name] = "%s: %s" % (type(error).__name__, str(error).splitlines()[0] if str(error) else "")
        torch.cuda.empty_cache()
    return {"measured": measured, "skipped": skipped, "repeats": repeats}
