import pytest

from tinyml.kernels.attention import launch


@pytest.mark.rocm
def test_attention_on_rocm(rocm_device):
    out = launch([[0.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]], [[2.0], [4.0]], device_index=rocm_device)
    assert out == [[3.0]]  # equal scores -> plain average of the values
