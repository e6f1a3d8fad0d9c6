# Stands for a GPU runtime module: "available" on the GPU pass only.
import os


def available():
    return os.environ.get("GATEKIT_DEVICE") == "gpu"


def add(a, b):
    return a + b
