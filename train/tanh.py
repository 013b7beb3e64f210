"""``Tanh`` for the batched trainer's networks: ``torch.nn.Tanh`` with its forward pass
computed by numpy on the CPU.

torch 2.13's CPU kernel for float32 ``tanh`` is slow: on this project's 2-core machines
(AVX-512) it takes about 1.3 ms for an 8,192 x 64 minibatch, numpy's about 0.09 ms, a
sigmoid 0.12 ms. The batched trainer's four Tanh layers (two in the actor, two in the
critic) then cost more than its matrix products. Measure it where you run:

    python -c "import torch, numpy, timeit; x = torch.randn(8192, 64); \\
        print(timeit.timeit(lambda: torch.tanh(x), number=100), \\
              timeit.timeit(lambda: numpy.tanh(x.numpy()), number=100))"

The module computes ``numpy.tanh`` (within 1.4 units in the last place of the exact value;
torch's within 0.5: the two differ in the last bit of about a third of the values) and
the gradient as torch does (``tanh_backward``: ``grad * (1 - y**2)`` from the output).
It has no parameters, so a network's state dict, and the checkpoint written from it, is
the same as with ``nn.Tanh``: ``PolicyAgent`` loads it with ``nn.Tanh``. Tensors that are
not dense float32 or float64 on the CPU go to ``torch.tanh``. The output is contiguous
(a memory format is not kept), and ``torch.func`` transforms (``vmap``, ``grad``) are not
supported: the trainer needs neither.
"""

from __future__ import annotations

import numpy as np
import torch

__all__ = ["Tanh"]


class _NumpyTanh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = torch.from_numpy(np.asarray(np.tanh(x.detach().contiguous().numpy())))  # 0-d too
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return torch.ops.aten.tanh_backward(grad, y)


class Tanh(torch.nn.Module):
    """``nn.Tanh`` through numpy (see the module docstring)."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if (x.device.type != "cpu" or x.layout != torch.strided
                or x.dtype not in (torch.float32, torch.float64)):
            return torch.tanh(x)
        return _NumpyTanh.apply(x)
