import math

import pytest

from tinyml import tensor


def test_matmul():
    assert tensor.matmul([[1, 2], [3, 4]], [[5, 6], [7, 8]]) == [[19, 22], [43, 50]]
    a = [[1.0, 2.0, 3.0]]
    assert tensor.matmul(a, tensor.identity(3)) == a
    assert tensor.matmul(a, tensor.transpose(a)) == [[14.0]]


def test_matmul_shape_mismatch():
    with pytest.raises(ValueError, match="shape mismatch"):
        tensor.matmul([[1, 2]], [[1, 2]])


def test_add_and_bad_shapes():
    assert tensor.add([[1, 2]], [[3, 4]]) == [[4, 6]]
    with pytest.raises(ValueError, match="shape mismatch"):
        tensor.add([[1, 2]], [[1], [2]])
    with pytest.raises(ValueError, match="ragged"):
        tensor.shape([[1, 2], [3]])


def test_softmax_rows_sum_to_one():
    for row in tensor.softmax([[0.0, 1.0, 2.0], [5.0, 5.0, 5.0]]):
        assert math.isclose(sum(row), 1.0)
    assert tensor.softmax([[5.0, 5.0]]) == [[0.5, 0.5]]


def test_softmax_stable_and_masked():
    # Huge logits must not overflow; -inf entries get exactly zero weight.
    assert tensor.softmax([[1000.0, 1000.0]]) == [[0.5, 0.5]]
    assert tensor.softmax([[0.0, -math.inf]]) == [[1.0, 0.0]]
