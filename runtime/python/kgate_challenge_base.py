"""Stands in for LeetGPU's `core.challenge_base` where a challenge.py is run outside the challenges
repository (a task directory copied on its own, the runtime's own corpus tasks): the base class a
challenge derives from and the lazy input descriptors its generate_performance_test returns. Only the
interface a challenge uses is here (a `device` attribute, the descriptors' fields); the runtime turns
descriptors into tensors itself (kgate_leetgpu.materialize). A challenge inside the repository imports
the repository's own module instead (kgate_leetgpu.prepare_import finds it)."""


class _Descriptor:
    """A tensor to be made later: its shape and dtype name, and the fields of its kind."""

    def __init__(self, shape, dtype, **fields):
        self.shape = tuple(shape)
        self.dtype = dtype
        for name, value in fields.items():
            setattr(self, name, value)


class RandTensor(_Descriptor):
    """Uniform values in [low, high)."""

    def __init__(self, shape, low=0.0, high=1.0, dtype="float32"):
        super().__init__(shape, dtype, low=low, high=high)


class RandnTensor(_Descriptor):
    """Normal values with mean and std."""

    def __init__(self, shape, mean=0.0, std=1.0, dtype="float32"):
        super().__init__(shape, dtype, mean=mean, std=std)


class RandIntTensor(_Descriptor):
    """Integers in [low, high)."""

    def __init__(self, shape, low, high, dtype="int32"):
        super().__init__(shape, dtype, low=low, high=high)


class FullTensor(_Descriptor):
    """Every element `value`."""

    def __init__(self, shape, value=0.0, dtype="float32"):
        super().__init__(shape, dtype, value=value)


class OutTensor(_Descriptor):
    """An output buffer: only its shape and dtype matter."""

    def __init__(self, shape, dtype="float32"):
        super().__init__(shape, dtype)


class ChallengeBase:
    """What a challenge inherits: the device its generators allocate on. The runtime calls
    reference_impl, get_solve_signature and the generate_*_test methods the challenge defines."""

    name = ""
    atol = 1e-5
    rtol = 1e-5
    num_gpus = 1
    access_tier = "free"

    def __init__(self, device="cuda"):
        self.device = device
