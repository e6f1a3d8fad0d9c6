"""unittest-style mixin shared by two test files: pytest's xunit1 family reports its methods
with file="tests/common.py" in both classes. test_shared is broken in TestTF only; test_flip is
flaky in each class (fails the first time it runs in a run directory, FLAKY_RUN_DIR)."""
import os
import pathlib


class Mixin:
    kind = ""

    def test_shared(self):
        assert self.kind != "tf", "broken for tf only"

    def test_flip(self):
        mark = pathlib.Path(os.environ["FLAKY_RUN_DIR"]) / ("flip-" + self.kind)
        first = not mark.exists()
        mark.write_text("seen")
        assert not first, f"{self.kind}: failed the first time in this run directory"
