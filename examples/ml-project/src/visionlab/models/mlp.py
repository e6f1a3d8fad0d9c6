"""A two-layer perceptron on plain lists: the reference the fused ops are checked against."""

import random


def matvec(weights, xs):
    return [sum(w * x for w, x in zip(row, xs)) for row in weights]


def relu(xs):
    return [x if x > 0 else 0.0 for x in xs]


class MLP:
    def __init__(self, inputs: int, hidden: int, outputs: int, seed: int = 0):
        rng = random.Random(seed)
        self.w1 = [[rng.uniform(-1, 1) for _ in range(inputs)] for _ in range(hidden)]
        self.b1 = [0.0] * hidden
        self.w2 = [[rng.uniform(-1, 1) for _ in range(hidden)] for _ in range(outputs)]

    def hidden(self, xs):
        return relu([h + b for h, b in zip(matvec(self.w1, xs), self.b1)])

    def forward(self, xs):
        return matvec(self.w2, self.hidden(xs))
