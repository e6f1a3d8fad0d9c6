"""Fused device ops: one kernel launch where the model takes several."""

from visionlab.ops.fused import fused_bias_relu

__all__ = ["fused_bias_relu"]
