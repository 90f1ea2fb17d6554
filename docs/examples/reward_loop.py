"""A reward function for kernel-writing RL on Ray, with KernelGate as the verifier.

Each GPU of the cluster holds one RewardModel actor, which keeps one kgate.Verifier (one long-lived
judge): a candidate pays for its own sandboxed worker, not for a judge, an interpreter and a torch
import. The reward is read from the result: 0 for anything but a pass (a static rejection, a wrong
answer, a crash, a timeout, a sandbox violation), a base for a correct kernel, and a bonus that grows
with the measured speed-up over eager PyTorch (GPU runs). A harness error is no verdict on the
candidate: it gets no reward and is reported apart, so a training loop can retry or drop it rather
than punish the policy for the harness's fault.

    python docs/examples/reward_loop.py --task Activation/gelu cand1.py cand2.py          # GPUs of a local cluster
    python docs/examples/reward_loop.py --address auto --task Activation/gelu *.py        # an existing cluster
    python docs/examples/reward_loop.py --device cpu --runtime-only --task T.py cand.py   # CPU, no static gate

Inside a trainer (verl, OpenRLHF, SkyRL), create the actors once and call score() from the reward
function of each step; kgate.ray.VerifierPool.verify_batch does the same for batches that stream back.
"""
import argparse
import math
import pathlib
import sys

import ray

import kgate


def reward_from_result(result: kgate.VerifyResult) -> float:
    """0 unless the candidate passed; 0.3 for a correct kernel, up to 1.0 at a 4x speed-up."""
    if not result.passed:
        return 0.0
    speedup = result.speedup
    if speedup is None:  # no timing (a CPU run): correctness only
        return 0.3
    return 0.3 + 0.7 * min(max(math.log2(max(speedup, 1e-9)), 0.0), 2.0) / 2.0


@ray.remote
class RewardModel:
    def __init__(self, device: str, profile: str, static: bool):
        self.verifier = kgate.Verifier(device=device, profile=profile)
        self.static = static

    def score(self, source: str, task: str, path: str = "submission.py") -> dict:
        result = self.verifier.verify(source, task, path=path, static=self.static)
        return {"reward": reward_from_result(result), "verdict": result.verdict, "speedup": result.speedup,
                "harness_error": result.harness_error, "reasons": [r["id"] for r in result.reasons]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--task", required=True)
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cuda")
    parser.add_argument("--profile", choices=["quick", "full"], default="quick")
    parser.add_argument("--address", default=None, help="a Ray cluster (default: start a local one)")
    parser.add_argument("--actors", type=int, default=None, help="default: one per GPU (cpu: one)")
    parser.add_argument("--runtime-only", action="store_true", help="skip the static gate (as kgate run)")
    args = parser.parse_args(argv)
    if not ray.is_initialized():
        ray.init(address=args.address, log_to_driver=False, include_dashboard=False)
    count = args.actors or (int(ray.cluster_resources().get("GPU", 0)) if args.device == "cuda" else 1)
    if count < 1:
        sys.exit("reward_loop: the cluster has no GPU; use --device cpu")
    actor = RewardModel.options(num_gpus=1 if args.device == "cuda" else 0, num_cpus=1, max_restarts=-1,
                                max_task_retries=2)
    models = [actor.remote(args.device, args.profile, not args.runtime_only) for _ in range(count)]
    refs = [models[n % count].score.remote(pathlib.Path(f).read_text(encoding="utf-8"), args.task,
                                           pathlib.Path(f).name)
            for n, f in enumerate(args.files)]
    for file, scored in zip(args.files, ray.get(refs)):
        print(f"{file}\treward {scored['reward']:.3f}\t{scored['verdict']}\t"
              f"speedup {scored['speedup']}\t{','.join(scored['reasons'])}")
    for model in models:
        ray.kill(model)
    return 0


if __name__ == "__main__":
    sys.exit(main())
