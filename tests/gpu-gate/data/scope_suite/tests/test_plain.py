import pytest


def test_plain():
    assert sum([1, 2]) == 3


@pytest.mark.nightly
def test_nightly():
    assert True
