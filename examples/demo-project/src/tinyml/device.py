"""GPU detection that never imports a GPU runtime (no torch, no CUDA libs).

Contract of ``detect()`` / ``visible_gpu_count()``:

1. If env ``TINYML_FAKE_GPUS`` is set and non-empty, it is the number of
   "physical" GPUs (backend ``"fake"``), so CPU-only machines can exercise
   GPU code paths. It must be an integer >= 0, else ValueError.
2. Otherwise GPUs are found from device nodes: ``/dev/nvidia<N>`` files
   (backend ``"cuda"``), else ``/dev/kfd`` (backend ``"rocm"``; one GPU per
   ``/dev/dri/renderD*`` node, at least one). Nothing found: count 0.
3. ``CUDA_VISIBLE_DEVICES``, when set, then narrows that count the way the
   CUDA runtime does: ``""`` or ``"-1"`` hides everything; otherwise entries
   are taken up to the first invalid index, capped at the physical count.
   (Non-numeric entries such as GPU UUIDs are counted as valid.)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping


@dataclass(frozen=True)
class Devices:
    count: int    # GPUs this process may use
    backend: str  # "fake" | "cuda" | "rocm" | "none"
    source: str   # human-readable origin of the count, for logs and skip reasons


def detect(env: Mapping[str, str] | None = None, dev_root: str | os.PathLike = "/dev") -> Devices:
    env = os.environ if env is None else env
    fake = env.get("TINYML_FAKE_GPUS", "").strip()
    if fake:
        if not fake.isdigit():
            raise ValueError(f"TINYML_FAKE_GPUS must be an integer >= 0, got {fake!r}")
        physical, backend, source = int(fake), "fake", f"TINYML_FAKE_GPUS={fake}"
    else:
        root = Path(dev_root)
        nvidia = [p for p in root.glob("nvidia*") if p.name[len("nvidia"):].isdigit()]
        if nvidia:
            physical, backend, source = len(nvidia), "cuda", f"{root}/nvidia*"
        elif (root / "kfd").exists():
            physical = max(1, len(list(root.glob("dri/renderD*"))))
            backend, source = "rocm", f"{root}/kfd"
        else:
            physical, backend, source = 0, "none", f"no {root}/nvidia* or {root}/kfd"

    mask = env.get("CUDA_VISIBLE_DEVICES")
    count = physical if mask is None else _apply_mask(physical, mask)
    if mask is not None:
        source += f", CUDA_VISIBLE_DEVICES={mask!r}"
    return Devices(count, backend, source)


def visible_gpu_count(env: Mapping[str, str] | None = None) -> int:
    """Number of GPUs this process may use (see module docstring)."""
    return detect(env).count


def _apply_mask(physical: int, mask: str) -> int:
    visible = 0
    for entry in mask.split(","):
        entry = entry.strip()
        if not entry:
            break
        if entry.lstrip("-").isdigit() and not 0 <= int(entry) < physical:
            break  # like CUDA: enumeration stops at the first invalid index
        visible += 1
    return min(visible, physical)
