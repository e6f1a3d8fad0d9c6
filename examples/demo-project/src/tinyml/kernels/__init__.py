"""The "GPU kernel" code path. Pure Python here; tests for it are marked gpu."""
