"""On a GPU: the compiled run uses it, the eager reference can stay on the CPU (skipped without one)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import pytest

from jaxlint_runtime import verify


def matmul_chain(a, b):
    for _ in range(3):
        a = jnp.tanh(a @ b)
    return a


@pytest.mark.gpu
def test_compiled_on_the_gpu_against_eager_on_the_cpu() -> None:
    a = jax.random.normal(jax.random.key(0), (64, 64))
    b = jax.random.normal(jax.random.key(1), (64, 64)) / 8
    report = verify(matmul_chain, a, b, reference_device="cpu")
    assert report.backend == "gpu"
    assert report.device.startswith("gpu:0") and report.reference_device == "cpu:0"
    assert report.ok, report.mismatches
    assert report.timings.compile_s is not None and report.timings.compile_s > 0


@pytest.mark.gpu
def test_bfloat16_on_the_gpu_matches_eager_on_the_gpu() -> None:
    a = jax.random.normal(jax.random.key(0), (128, 128), dtype=jnp.bfloat16)
    report = verify(matmul_chain, a, a / 16)
    assert report.device.startswith("gpu:0") and report.reference_device.startswith("gpu:0")
    assert report.ok, report.mismatches
