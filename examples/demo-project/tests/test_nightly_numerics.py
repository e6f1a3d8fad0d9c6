"""Costly numerics check: only daily legs run it (marker `nightly`)."""

import math
import random

import pytest

from tinyml import tensor
from tinyml.kernels.attention import attention


@pytest.mark.nightly
def test_attention_matches_naive_reference_on_many_shapes():
    rng = random.Random(1234)
    for trial in range(40):
        n, d = rng.randint(1, 12), rng.randint(1, 16)
        q, k, v = ([[rng.gauss(0, 3) for _ in range(d)] for _ in range(n)] for _ in range(3))
        got = attention(q, k, v)
        for i in range(n):
            logits = [sum(a * b for a, b in zip(q[i], k[j])) / math.sqrt(d) for j in range(n)]
            weights = [math.exp(x - max(logits)) for x in logits]
            want = [sum(w * v[j][c] for j, w in enumerate(weights)) / sum(weights) for c in range(d)]
            assert all(math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12) for x, y in zip(got[i], want)), trial
    # Softmax stays normalised across 300 orders of magnitude of logits.
    for exp in range(-150, 151, 10):
        assert math.isclose(sum(tensor.softmax([[10.0 ** exp, 0.0, -(10.0 ** exp)]])[0]), 1.0)
