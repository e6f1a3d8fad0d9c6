from visionlab.data.synthetic import blobs

__all__ = ["blobs"]
