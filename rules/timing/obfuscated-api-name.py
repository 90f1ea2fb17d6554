# Fixture for obfuscated-api-name: names folded from string pieces at run time.
import torch
import torch.nn as nn
import torch.nn.functional as F


def _fake_elapsed(self, end):
    return 0.001


# ruleid: obfuscated-api-name
setattr(torch.cuda.Event, "elapsed" + "_time", _fake_elapsed)


class ModelNew(nn.Module):
    def forward(self, a, b):
        # ruleid: obfuscated-api-name
        y = getattr(torch, "mat" + "mul")(a, b)
        # ruleid: obfuscated-api-name
        y = torch.__dict__["mm"](y, b)
        # ruleid: obfuscated-api-name
        y = getattr(F, "re" + "lu")(y)
        # ok: obfuscated-api-name
        y = torch.matmul(y, b)
        label = "mat" + "mul"
        # ok: obfuscated-api-name
        print(label, hasattr(torch, "compile"))
        return y
