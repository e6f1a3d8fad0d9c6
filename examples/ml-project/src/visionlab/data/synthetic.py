"""Synthetic data sets: reproducible from a seed."""

import random


def blobs(samples: int, features: int, seed: int = 0):
    """`samples` points in two blobs around -1 and +1, with their labels 0 and 1."""
    rng = random.Random(seed)
    points, labels = [], []
    for i in range(samples):
        label = i % 2
        centre = 1.0 if label else -1.0
        points.append([rng.gauss(centre, 0.3) for _ in range(features)])
        labels.append(label)
    return points, labels
