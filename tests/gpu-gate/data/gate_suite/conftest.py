import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "src"))


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: a test of the GPU leg (a selection file's `device: gpu` leg)")
    # Each test run leaves one line in GATE_TEST_LOG (outside the checkout): which pass ran.
    log = os.environ.get("GATE_TEST_LOG")
    if log and not hasattr(config, "workerinput"):
        with open(log, "a") as f:
            f.write("device=%s stress=%s\n" % (os.environ.get("GATEKIT_DEVICE", ""), os.environ.get("GATEKIT_STRESS", "")))
