import pytest


@pytest.mark.gpu
def test_kernel_on_the_gpu():
    pytest.skip("no GPU visible")


@pytest.mark.gpu
@pytest.mark.nightly
def test_every_kernel_size():
    pytest.skip("no GPU visible")


def test_kernel_without_its_marker():
    # The mistake `unmarked` catches: a GPU test without the gpu marker lands in the CPU leg
    # and skips there silently.
    pytest.skip("no GPU visible")
