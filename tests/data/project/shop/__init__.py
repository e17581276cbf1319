"""A small shop of kernels."""
