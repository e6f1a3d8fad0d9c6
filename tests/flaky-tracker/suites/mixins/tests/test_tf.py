import unittest

from tests.common import Mixin


class TestTF(Mixin, unittest.TestCase):
    kind = "tf"


class TestA:
    def test_same(self):
        pass
