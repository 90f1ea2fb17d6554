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
