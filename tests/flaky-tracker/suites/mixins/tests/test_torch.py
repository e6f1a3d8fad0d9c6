import unittest

import pytest

from tests.common import Mixin


class TestTorch(Mixin, unittest.TestCase):
    kind = "torch"


class TestA:
    def test_same(self):
        pass

    class TestInner:
        def test_same(self):
            pass


@pytest.mark.parametrize("x", [1, "a.b", "x::y"])
def test_param(x):
    pass


def test_same():
    pass
