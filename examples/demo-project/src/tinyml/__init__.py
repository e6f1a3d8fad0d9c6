"""tinyml: a tiny pure-Python stand-in for a GPU ML project.

It exists so gatekit's demo has something realistic to gate: CPU tests,
GPU-marked tests, a "kernel" module, concurrency code and smoke workloads.
Nothing here imports a GPU runtime; GPUs are only *detected* (see device.py).
"""

__version__ = "0.3.0"
