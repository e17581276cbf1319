"""The same file gives the same findings, messages included, on every run, whatever order the hash
seed gives to the lazy analysis of its functions (which once decided whether a reuse was found)
or to the sets of callers a message picks from."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # eight processes

# Module code calls every function; `use_default` consumes the default key `KEY` twice. Whether
# `noise`'s default was known when `use_default` was first analysed used to depend on the order.
PROGRAM = """\
import jax
import jax.numpy as jnp

KEY = jax.random.key(0)


def noise(x, key=KEY):
    return x + jax.random.normal(key, x.shape)


def noise_none(x, key=None):
    if key is None:
        key = jax.random.key(1)
    return x + jax.random.normal(key, x.shape)


def use(x):
    return noise(x, jax.random.key(1)) + noise_none(x) + noise_none(x)


def use_default(x):
    return noise(x) + noise(x)


@jax.jit
def use_jit(x):
    return noise(x)


for f in (use, use_default, use_jit):
    f(jnp.ones(2))


class Model:
    def __init__(self, w):
        self.w = w

    def __call__(self, x):
        return self.w * x + jax.random.normal(KEY, x.shape)


M = Model(jnp.ones(3))


@jax.jit
def step(x):
    return M(x)


@jax.jit
def step2(x):
    return M(x)
"""


def findings(path: Path, seed: int) -> list[tuple[int, str, str]]:
    env = {**os.environ, "PYTHONHASHSEED": str(seed)}
    command = [sys.executable, "-m", "jaxlint", "check", "--no-cache", "--isolated", "--exit-zero"]
    result = subprocess.run(
        [*command, "--output-format", "json", str(path)], capture_output=True, text=True, env=env, check=True
    )
    return sorted((d["location"]["row"], d["code"], d["message"]) for d in json.loads(result.stdout))


def test_findings_do_not_depend_on_the_hash_seed(tmp_path: Path) -> None:
    path = tmp_path / "draws.py"
    path.write_text(PROGRAM)
    runs = {seed: findings(path, seed) for seed in range(1, 9)}
    assert all(run == runs[1] for run in runs.values()), runs
    assert (22, "JAX301") in {(row, code) for row, code, _ in runs[1]}  # the second `noise(x)` reuses `KEY`
    # of the two jitted functions that run `__call__`, the message names the first
    assert any("outside jitted `step` and consumed inside `__call__`" in message for *_, message in runs[1])
