from visionlab.data import blobs


def test_blobs_are_reproducible():
    assert blobs(8, 3, seed=4) == blobs(8, 3, seed=4)


def test_blobs_alternate_labels():
    _, labels = blobs(6, 2)
    assert labels == [0, 1, 0, 1, 0, 1]
