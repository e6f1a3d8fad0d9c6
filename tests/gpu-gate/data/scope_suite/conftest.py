# The device is chosen by gpu-gate: GATEKIT_DEVICE=gpu|cpu (this fixture has no real GPU).
import os

import pytest


@pytest.fixture
def device():
    return os.environ.get("GATEKIT_DEVICE", "cpu")
