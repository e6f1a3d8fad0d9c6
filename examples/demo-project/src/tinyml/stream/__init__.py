"""Concurrency helpers used to feed work to devices."""
