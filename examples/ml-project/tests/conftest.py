from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def tiny_config_path() -> Path:
    return ROOT / "configs" / "tiny.json"
