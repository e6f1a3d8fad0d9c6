# Outside the scope: no import of the GPU module, yet it skips on the CPU.
import pytest


def test_plain_everywhere():
    assert 1 + 1 == 2


def test_needs_gpu(device):
    if device != "gpu":
        pytest.skip("needs a GPU")
    assert True
