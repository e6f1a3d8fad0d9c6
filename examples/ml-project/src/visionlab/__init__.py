"""visionlab: small vision models, synthetic data and fused device ops."""

__version__ = "0.3.0"
