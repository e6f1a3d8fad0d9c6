"""Scaled dot-product attention, the demo's stand-in for a GPU kernel.

Contract: ``attention(q, k, v)`` returns ``softmax(q @ k^T / sqrt(d)) @ v``
for q: (n, d), k: (m, d), v: (m, dv) -> (n, dv). With ``causal=True``, query
i only attends to keys 0..i (needs n <= m). ``launch`` is the device entry
point: it refuses a device index that device.py does not see.
"""

from __future__ import annotations

import math

from tinyml import device, tensor
from tinyml.tensor import Matrix


def attention(q: Matrix, k: Matrix, v: Matrix, *, causal: bool = False) -> Matrix:
    n, d = tensor.shape(q)
    m, dk = tensor.shape(k)
    mv, _ = tensor.shape(v)
    if d != dk or m != mv:
        raise ValueError(f"attention shape mismatch: q{(n, d)} k{(m, dk)} v rows={mv}")
    if causal and n > m:
        raise ValueError("causal attention needs len(q) <= len(k)")
    scores = tensor.scale(tensor.matmul(q, tensor.transpose(k)), 1.0 / math.sqrt(d))
    if causal:
        scores = [[s if j <= i else -math.inf for j, s in enumerate(row)] for i, row in enumerate(scores)]
    return tensor.matmul(tensor.softmax(scores), v)


def launch(q: Matrix, k: Matrix, v: Matrix, *, device_index: int, causal: bool = False) -> Matrix:
    """Run attention "on" GPU ``device_index``; RuntimeError if it is not visible."""
    found = device.detect()
    if not 0 <= device_index < found.count:
        raise RuntimeError(f"GPU {device_index} not visible ({found.count} visible; {found.source})")
    return attention(q, k, v, causal=causal)
