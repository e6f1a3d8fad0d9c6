"""The fused ops on a CUDA device, checked against the reference model's layers."""

import pytest

from visionlab.device import cuda_available
from visionlab.models.mlp import MLP, matvec, relu
from visionlab.ops import fused_bias_relu

pytestmark = [pytest.mark.cuda, pytest.mark.skipif(not cuda_available(), reason="CUDA not available")]


def test_fused_bias_relu_matches_the_model():
    model = MLP(inputs=4, hidden=8, outputs=2, seed=3)
    model.b1 = [0.1 * i - 0.4 for i in range(8)]
    xs = [0.2, -0.7, 1.1, 0.4]
    assert fused_bias_relu(matvec(model.w1, xs), model.b1) == model.hidden(xs)


def test_fused_bias_relu_clamps_at_zero():
    assert fused_bias_relu([-1.0, 0.5], [0.0, -1.0]) == [0.0, 0.0]


def test_fused_bias_relu_refuses_mismatched_shapes():
    with pytest.raises(ValueError, match="3 values but 2 biases"):
        fused_bias_relu([1.0, 2.0, 3.0], [0.0, 0.0])


def test_relu_reference_agrees():
    assert fused_bias_relu([1.5, -2.0], [0.0, 0.0]) == relu([1.5, -2.0])
