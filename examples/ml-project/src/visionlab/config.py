"""A run's configuration: a JSON file such as configs/tiny.json."""

import json
from pathlib import Path

REQUIRED = {"model": ("inputs", "hidden", "outputs"), "data": ("samples", "seed"), "train": ("epochs", "learning_rate")}


def load(path) -> dict:
    config = json.loads(Path(path).read_text())
    for section, keys in REQUIRED.items():
        missing = [key for key in keys if key not in config.get(section, {})]
        if missing:
            raise ValueError(f"{path}: {section}: missing {', '.join(missing)}")
    return config
