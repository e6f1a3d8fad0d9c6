# In scope by folder: runs on the GPU pass only.
import os

import pytest


@pytest.mark.skipif(os.environ.get("GATEKIT_DEVICE") != "gpu", reason="needs a GPU")
def test_kernel():
    assert True
