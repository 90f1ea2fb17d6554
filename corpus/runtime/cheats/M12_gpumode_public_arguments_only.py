# runtime-task: corpus/runtime/tasks/gpumode_masked_activation/reference.py
# runtime-expect: fail mismatch
"""M12 (GPU MODE): right for what the first test asks (relu, no mask), which a submitter sees in
task.yml; it never reads the mask or the activation's name, which other tests set differently."""
from task import input_t, output_t


def custom_kernel(data: input_t) -> output_t:
    return data["x"].clamp_min(0.0)
