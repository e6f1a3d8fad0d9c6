"""Shared fixtures.

GPU tests request ``gpu_device`` (or ``rocm_device``) instead of probing
hardware themselves: on a machine without a visible GPU the test is skipped
with a reason saying why, never errored. Set TINYML_FAKE_GPUS=1 to run GPU
tests on a CPU-only machine.
"""

from __future__ import annotations

import pytest

from tinyml import device


@pytest.fixture
def gpu_device() -> int:
    """Index of a usable GPU (always 0); skips when none is visible."""
    found = device.detect()
    if found.count == 0:
        pytest.skip(f"no GPU visible ({found.source}); set TINYML_FAKE_GPUS=1 to fake one")
    return 0


@pytest.fixture
def rocm_device() -> int:
    """Like gpu_device, but also needs a ROCm (or fake) backend."""
    found = device.detect()
    if found.count == 0 or found.backend not in ("rocm", "fake"):
        pytest.skip(f"no ROCm GPU visible (backend={found.backend}, {found.source})")
    return 0
