import json

import pytest

from visionlab import config


def test_the_tiny_config_loads(tiny_config_path):
    assert config.load(tiny_config_path)["model"]["hidden"] == 8


def test_a_missing_key_is_named(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"model": {"inputs": 1, "hidden": 2}, "data": {"samples": 1, "seed": 0},
                                "train": {"epochs": 1, "learning_rate": 0.1}}))
    with pytest.raises(ValueError, match="model: missing outputs"):
        config.load(path)
