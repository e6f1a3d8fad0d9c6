"""Which device the ops run on.

VISIONLAB_FAKE_GPUS, when set, is the number of simulated CUDA devices (gatekit's demo runs
without a GPU and without PyTorch); otherwise CUDA is what torch.cuda says, and without
PyTorch there is none.
"""

import os


def cuda_device_count() -> int:
    fake = os.environ.get("VISIONLAB_FAKE_GPUS")
    if fake is not None:
        return int(fake) if fake.isdigit() else 0
    try:
        import torch
    except ImportError:
        return 0
    return torch.cuda.device_count()


def cuda_available() -> bool:
    return cuda_device_count() > 0
