# In scope by import (inside a function): skips without the GPU module.
import pytest


def test_add():
    import fakegpu
    if not fakegpu.available():
        pytest.skip("no GPU")
    assert fakegpu.add(1, 2) == 3
