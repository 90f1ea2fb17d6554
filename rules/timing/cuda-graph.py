# Fixture for cuda-graph: capture and replay.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        # ruleid: cuda-graph
        self.graph = torch.cuda.CUDAGraph()
        self.static_in = None
        self.static_out = None
        # ok: cuda-graph
        self.done = torch.cuda.Event()

    def forward(self, x):
        if self.static_in is None:
            self.static_in = x.clone()
            # ruleid: cuda-graph
            with torch.cuda.graph(self.graph):
                self.static_out = self.static_in * 2
        # ruleid: cuda-graph
        self.graph.replay()
        # ruleid: cuda-graph
        fn = torch.cuda.make_graphed_callables(nn.Identity(), (x,))
        # ok: cuda-graph
        torch.cuda.synchronize()
        del fn
        return self.static_out


# A graph of the submission's own launch, replayed only for the input it was captured on: the replay
# reads the live bytes of that input, so new values are computed. Each form below is allowed.
_ext = torch.utils.cpp_extension.load_inline(name="graph_ext", cpp_sources="void scale(torch::Tensor x, torch::Tensor y);",
                                             cuda_sources="void scale(torch::Tensor x, torch::Tensor y) {}",
                                             functions=["scale"])


class IdentityGuardedGraph(nn.Module):
    def __init__(self):
        super().__init__()
        # ok: cuda-graph
        self.graph = torch.cuda.CUDAGraph()
        self.captured_for = None
        self.out = None

    def forward(self, x):
        if x is self.captured_for:
            # ok: cuda-graph
            self.graph.replay()
            return self.out.clone()
        self.out = torch.empty_like(x)
        # ok: cuda-graph
        with torch.cuda.graph(self.graph):
            _ext.scale(x, self.out)
        self.captured_for = x
        # ok: cuda-graph
        self.graph.replay()
        return self.out.clone()


class PointerKeyedPlans(nn.Module):
    def __init__(self):
        super().__init__()
        self.plans = {}

    def forward(self, x):
        # ok: identity-cache-key
        key = (x.data_ptr(), tuple(x.shape))
        plan = self.plans.get(key)
        if plan is None:
            out = torch.empty_like(x)
            # ok: cuda-graph
            g = torch.cuda.CUDAGraph()
            # ok: cuda-graph
            with torch.cuda.graph(g):
                _ext.scale(x, out)
            plan = self.plans[key] = (g, out)
        # ok: cuda-graph
        plan[0].replay()
        return plan[1].clone()


class CopyInGraph(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.static_x = torch.zeros(n)
        self.static_y = torch.zeros(n)
        # ok: cuda-graph
        self.graph = torch.cuda.CUDAGraph()
        # ok: cuda-graph
        with torch.cuda.graph(self.graph):
            _ext.scale(self.static_x, self.static_y)

    def forward(self, x):
        self.static_x.copy_(x)
        # ok: cuda-graph
        self.graph.replay()
        return self.static_y.clone()


class StoredResultGraph(nn.Module):
    """Replayed only for the input it was captured on, but the capture records a copy of a result kept
    from an earlier call: the replay recomputes nothing."""

    def __init__(self):
        super().__init__()
        # ruleid: cuda-graph
        self.graph = torch.cuda.CUDAGraph()
        self.captured_for = None
        self.kept = None
        self.out = None

    def forward(self, x):
        if x is not self.captured_for:
            self.captured_for = x
            if self.kept is None:
                self.kept = torch.empty_like(x)
                _ext.scale(x, self.kept)
            self.out = torch.empty_like(x)
            # ruleid: cuda-graph
            with torch.cuda.graph(self.graph):
                self.out.copy_(self.kept)
        # ok: cuda-graph
        self.graph.replay()
        return self.out.clone()


class PointerChangeRecaptures(nn.Module):
    """The replay sits in the else branch of a test that recaptures when the pointer changed."""

    def __init__(self):
        super().__init__()
        self.graph = None
        self.ptr = None
        self.out = None

    def forward(self, x):
        ptr = x.data_ptr()
        if self.graph is None or self.ptr != ptr:
            self.out = torch.empty_like(x)
            # ok: cuda-graph
            g = torch.cuda.CUDAGraph()
            # ok: cuda-graph
            with torch.cuda.graph(g):
                _ext.scale(x, self.out)
            self.graph, self.ptr = g, ptr
        else:
            # ok: cuda-graph
            self.graph.replay()
        return self.out.clone()


class InvertedGuard(nn.Module):
    """Replays exactly when the input is NOT the one it was captured for: stale work for new inputs."""

    def __init__(self):
        super().__init__()
        # ruleid: cuda-graph
        self.graph = torch.cuda.CUDAGraph()
        self.captured_for = None
        self.out = None

    def forward(self, x):
        if x is not self.captured_for:
            # ruleid: cuda-graph
            self.graph.replay()
            return self.out.clone()
        self.out = torch.empty_like(x)
        # ok: cuda-graph
        with torch.cuda.graph(self.graph):
            _ext.scale(x, self.out)
        self.captured_for = x
        return self.out.clone()


class CopyIntoUnreadBuffer(nn.Module):
    """The new input is copied into a buffer the captured graph never reads: the replay is stale."""

    def __init__(self, n):
        super().__init__()
        self.captured_in = torch.zeros(n)
        self.decoy_in = torch.zeros(n)
        self.static_y = torch.zeros(n)
        # ruleid: cuda-graph
        self.graph = torch.cuda.CUDAGraph()
        # ok: cuda-graph
        with torch.cuda.graph(self.graph):
            _ext.scale(self.captured_in, self.static_y)

    def forward(self, x):
        self.decoy_in.copy_(x)
        # ruleid: cuda-graph
        self.graph.replay()
        return self.static_y.clone()
