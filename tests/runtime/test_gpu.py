"""On a GPU: the compiled run uses it, the eager reference can stay on the CPU (skipped without one)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import pytest

from jaxlint_runtime import verify

pytestmark = pytest.mark.slow  # runs JAX


def wave(x):
    return jnp.sin(x) * jnp.exp(-(x**2)), jnp.cumsum(x)


def layer(a, b):
    return jnp.tanh(a @ b)


@pytest.mark.gpu
def test_compiled_on_the_gpu_against_eager_on_the_cpu() -> None:
    x = jax.random.normal(jax.random.key(0), (1024,))
    report = verify(wave, x, reference_device="cpu")
    assert report.backend == "gpu"
    assert report.device.startswith("gpu:0") and report.reference_device == "cpu:0"
    assert report.ok, report.mismatches
    assert report.timings.compile_s is not None and report.timings.compile_s > 0


@pytest.mark.gpu
def test_bfloat16_on_the_gpu_matches_eager_on_the_gpu() -> None:
    a = jax.random.normal(jax.random.key(0), (128, 128), dtype=jnp.bfloat16)
    report = verify(layer, a, a / 16)
    assert report.device.startswith("gpu:0") and report.reference_device.startswith("gpu:0")
    assert report.matched is True, report.mismatches


@pytest.mark.gpu
def test_a_frozen_global_is_found_on_the_gpu_too() -> None:
    report = verify(_apply_scale, jnp.arange(3.0))
    assert report.device.startswith("gpu:0")
    assert [finding.kind for finding in report.findings] == ["stale-global"]


scale = 1.0


def set_scale(value: float) -> None:
    global scale
    scale = value


@jax.jit
def _apply_scale(x):
    return x * scale
