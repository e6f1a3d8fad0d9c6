"""Small dense matrix ops on lists of lists (row-major, floats).

Contract: every function takes/returns ``Matrix`` values, never mutates its
inputs, and raises ValueError on ragged rows or mismatched shapes.
"""

from __future__ import annotations

import math

Matrix = list[list[float]]


def shape(m: Matrix) -> tuple[int, int]:
    """Return (rows, cols); ValueError if rows have different lengths."""
    rows = len(m)
    cols = len(m[0]) if rows else 0
    if any(len(r) != cols for r in m):
        raise ValueError("ragged matrix: rows have different lengths")
    return rows, cols


def zeros(rows: int, cols: int) -> Matrix:
    return [[0.0] * cols for _ in range(rows)]


def identity(n: int) -> Matrix:
    return [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]


def transpose(m: Matrix) -> Matrix:
    rows, cols = shape(m)
    return [[m[i][j] for i in range(rows)] for j in range(cols)]


def matmul(a: Matrix, b: Matrix) -> Matrix:
    """(n, k) @ (k, m) -> (n, m)."""
    n, k = shape(a)
    k2, _ = shape(b)
    if k != k2:
        raise ValueError(f"matmul shape mismatch: ({n}, {k}) @ ({k2}, ...)")
    bt = transpose(b)
    return [[sum(x * y for x, y in zip(row, col)) for col in bt] for row in a]


def add(a: Matrix, b: Matrix) -> Matrix:
    """Element-wise a + b; shapes must be equal (no broadcasting)."""
    if shape(a) != shape(b):
        raise ValueError(f"add shape mismatch: {shape(a)} vs {shape(b)}")
    return [[x + y for x, y in zip(ra, rb)] for ra, rb in zip(a, b)]


def scale(m: Matrix, s: float) -> Matrix:
    shape(m)
    return [[x * s for x in row] for row in m]


def softmax(m: Matrix) -> Matrix:
    """Row-wise softmax, numerically stable (subtracts the row max).

    ``-inf`` entries get probability 0 (used for attention masks); each row
    needs at least one finite entry.
    """
    shape(m)
    out = []
    for row in m:
        top = max(row)
        if top == -math.inf:
            raise ValueError("softmax row has no finite entry")
        exps = [math.exp(x - top) for x in row]
        total = sum(exps)
        out.append([e / total for e in exps])
    return out
