"""Tests of the attention "kernel"; they need a (possibly fake) GPU."""

import pytest

from tinyml.kernels.attention import attention, launch

pytestmark = pytest.mark.gpu

Q = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
K = [[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]]
V = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]


def test_launch_matches_reference(gpu_device):
    assert launch(Q, K, V, device_index=gpu_device) == attention(Q, K, V)


def test_outputs_are_convex_combinations_of_values(gpu_device):
    for row in launch(Q, K, V, device_index=gpu_device):
        assert 1.0 <= row[0] <= 5.0 and 2.0 <= row[1] <= 6.0


def test_causal_first_row_sees_only_first_key(gpu_device):
    out = launch(Q, K, V, device_index=gpu_device, causal=True)
    assert out[0] == V[0]


def test_launch_rejects_invisible_device(gpu_device):
    with pytest.raises(RuntimeError, match="not visible"):
        launch(Q, K, V, device_index=10_000)
