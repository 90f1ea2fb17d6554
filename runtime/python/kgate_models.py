"""What the judge (reference Model) and the worker (candidate ModelNew) must do identically: the dtype
names of the manifest, how a built model is moved to the run's device and dtype, and the redraw of its
parameters under the secret seed."""
import json

import torch

DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16, "int8": torch.int8}


def cast_model(model, dtype_name, device):
    """Device first; floating parameters to fp16/bf16 when the run's dtype is one; eval mode."""
    model = model.to(device)
    dtype = DTYPES[dtype_name]
    if dtype.is_floating_point and dtype != torch.float32:
        model = model.to(dtype)
    return model.eval()


# Parameters redrawn under the secret seed (M12 keyed to default values: a kernel that skips a norm's
# affine step because its weight starts at ones). The judge draws a plan from the reference's own values
# and redraws the reference's floating parameters and its norms' running statistics; the candidate gets
# the same values where its tensors match the reference's by name and shape or, where the names differ,
# by order and shape (KernelBench's candidates build their layers in the reference's order). A candidate
# whose tensors match neither keeps its own: it must then not depend on the values it was built with.
_RUNNING_STATS = ("running_mean", "running_var")


def _redrawable(model):
    out = [(n, p) for n, p in model.named_parameters() if p.is_floating_point()]
    out += [(n, b) for n, b in model.named_buffers() if b.is_floating_point() and n.rsplit(".", 1)[-1] in _RUNNING_STATS]
    return out


def redraw_plan_json(model):
    return json.dumps(redraw_plan(model))


def redraw_plan(model):
    """[{name, shape, lo, hi}]: a uniform law per tensor. A constant c keeps its sign and scale (c * [0.5,
    1.5]; zeros [-0.5, 0.5]); other values keep their mean and spread (mean +- sqrt(3) std, within their
    range). Parameters that hold a few integers only (masks) are left alone."""
    plan = []
    with torch.no_grad():
        for name, t in _redrawable(model):
            if t.numel() == 0:
                continue
            v = t.detach().float()
            lo, hi = v.min().item(), v.max().item()
            if lo == hi:
                lo, hi = (0.5 * lo, 1.5 * lo) if lo != 0 else (-0.5, 0.5)
                lo, hi = min(lo, hi), max(lo, hi)
            elif torch.equal(v, v.round()) and hi - lo <= 1:
                continue
            else:
                mean, spread = v.mean().item(), 3 ** 0.5 * v.std().item()
                lo, hi = max(lo, mean - spread), min(hi, mean + spread)
            plan.append({"name": name, "shape": list(t.shape), "lo": lo, "hi": hi})
    return plan


def _targets(model, plan):
    """(tensors in plan order, how they matched) or (None, why they did not)."""
    state = _redrawable(model)
    named = dict(state)
    if all(e["name"] in named and list(named[e["name"]].shape) == e["shape"] for e in plan):
        return [named[e["name"]] for e in plan], "by name"
    if len(state) == len(plan) and all(list(t.shape) == e["shape"] for (_, t), e in zip(state, plan)):
        return [t for _, t in state], "by order"
    missing = next(e["name"] for e in plan if e["name"] not in named or list(named[e["name"]].shape) != e["shape"])
    return None, (f"no parameter '{missing}' of the reference's shape, and its {len(state)} parameters do not line up "
                  f"with the reference's {len(plan)} by order and shape")


def apply_redraw(model, plan_json, seed):
    """Draws the plan's values (entry i from its own CPU generator, seed + i) into the model's matching
    tensors. Returns (True, "by name" | "by order"), or (False, why not): nothing is written then."""
    plan = json.loads(plan_json)
    targets, how = _targets(model, plan)
    if targets is None:
        return False, how
    with torch.no_grad():
        for i, (entry, target) in enumerate(zip(plan, targets)):
            generator = torch.Generator().manual_seed((seed + i) % (1 << 63))
            values = torch.rand(entry["shape"], generator=generator, dtype=torch.float32)
            values = values * (entry["hi"] - entry["lo"]) + entry["lo"]
            target.copy_(values.to(dtype=target.dtype))
    return True, how
