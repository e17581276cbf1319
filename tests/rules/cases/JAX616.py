# A function compiled by `jax.jit` (or `nnx.jit`) that returns a string or bytes among its
# results raises `TypeError` when traced (measured with JAX 0.10.2). `None` is an empty pytree,
# a string used as a dict key is structure, and `equinox.filter_jit` passes non-arrays through.
from functools import partial

import equinox as eqx
import jax
import jax.numpy as jnp
from flax import nnx


@jax.jit
def validate(batch):
    status = "ok"
    return batch / batch.sum(), status  # error: JAX616


@partial(jax.jit, static_argnames=("tag",))
def tagged(x, tag):
    return {"value": x * 2.0, "tag": f"{tag}"}  # error: JAX616


def describe(x):
    return x.sum(), b"done"  # error: JAX616


describe_fast = nnx.jit(describe)


@jax.jit
def evaluate(x):
    status = "ok" if x.shape[0] > 0 else "empty"
    return x.sum(), status  # error: JAX616


# near misses

@jax.jit
def keyed(x):
    return {"loss": x.sum(), "aux": None}  # keys are structure, None an empty pytree


@jax.jit
def maybe_label(x, verbose=False):
    label = "verbose" if verbose else None
    return x, label  # a string in one branch only: `verbose` is False here


@eqx.filter_jit
def labelled(x):
    return x * 2.0, "doubled"  # filter_jit keeps non-array outputs as they are


@jax.jit
def sometimes(x, verbose=False):
    if verbose:
        return x, "verbose"
    return x, None


if __name__ == "__main__":
    x = jnp.ones(3)
    for call in (lambda: validate(x), lambda: tagged(x, tag="a"), lambda: describe_fast(x), lambda: evaluate(x)):
        try:
            call()
        except TypeError:
            pass
        else:
            raise AssertionError("expected TypeError")
    print(keyed(x))
    print(maybe_label(x))
    print(labelled(x))
    print(sometimes(x))
    print("ok")
