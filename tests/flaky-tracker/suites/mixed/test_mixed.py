"""A fixture suite with deterministic flakiness: a flaky test fails the first time it runs in a
run directory (FLAKY_RUN_DIR) and passes every time after."""
import os
import pathlib

import pytest


def first_time(name):
    mark = pathlib.Path(os.environ["FLAKY_RUN_DIR"]) / (name + ".seen")
    if mark.exists():
        return False
    mark.write_text("seen")
    return True


def test_ok():
    pass


def test_flaky():
    assert not first_time("test_flaky"), "failed the first time in this run directory"


@pytest.mark.parametrize("arg", ["-rf", "--help", "a b"])
def test_flaky_param(arg):
    assert not first_time("param" + arg), f"param {arg} failed the first time"


def test_broken():
    print("::error::printed by test_broken")  # pytest shows it with the failure: it must stay inert
    assert 1 == 2, "always broken"


@pytest.fixture
def broken_setup():
    raise RuntimeError("setup cannot start")


def test_setup_error(broken_setup):
    pass
