from visionlab.models.mlp import MLP

__all__ = ["MLP"]
