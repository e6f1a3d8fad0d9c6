import os

import pytest

import kernels


@pytest.mark.gpu
def test_add_on_the_device():
    assert os.environ.get("GATEKIT_DEVICE") == "gpu"
    assert os.environ.get("GATE_FORCE_FAIL") is None, "failing on purpose (GATE_FORCE_FAIL)"
    assert kernels.add(1, 2) == 3
