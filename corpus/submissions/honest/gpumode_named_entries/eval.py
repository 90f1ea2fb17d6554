# The task's evaluator: it imports the submission as a module and calls the two functions the task
# names, through the module object it hands to each check.
import sys

import torch

from reference import generate_inputs, reference_backward, reference_forward

ENTRIES = ("squared_relu_forward", "squared_relu_backward")


def load():
    import submission

    for name in ENTRIES:
        if not hasattr(submission, name):
            raise AttributeError(f"submission defines no {name}")
    return submission


def check(module, size):
    x, grad_y = generate_inputs(size)
    y = module.squared_relu_forward(x)
    grad_x = module.squared_relu_backward(x, grad_y)
    torch.testing.assert_close(y, reference_forward(x))
    torch.testing.assert_close(grad_x, reference_backward(x, grad_y))


def main():
    module = load()
    for size in (4096, 1000003):
        check(module, size)
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
