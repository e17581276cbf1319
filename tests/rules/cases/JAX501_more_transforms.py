# Transformations beyond jit/vmap/grad/lax that trace the function they are given (each
# measured with JAX 0.10.2, flax 0.12 and equinox 0.13): `jnp.vectorize` maps it with vmap
# (its `excluded` arguments pass through as given); flax's nnx.cond/switch/fori_loop/while_loop
# and nnx.pmap trace like JAX's own; equinox's filter_checkpoint and filter_eval_shape, and
# checkify, stage it (a jnp result is a tracer there even when made from constants).
import equinox as eqx
import jax.numpy as jnp
import numpy as np
from flax import nnx
from jax.experimental import checkify


def relu(x):
    if x > 0:  # error: JAX501
        return x
    return 0.0


def scaled(x, flag):
    if flag:  # `excluded`: the caller's Python value
        return x * 2
    return x


def clipped(x, limit):
    if x > limit:  # error: JAX501
        return limit
    return x


def host_relu(x):
    if x > 0:  # NumPy's vectorize calls it with Python scalars
        return x
    return 0.0


def positive(x):
    if x.sum() > 0:  # error: JAX501
        return x
    return -x


def step(i, x):
    if x.sum() > 0:  # error: JAX501
        return x * 2
    return x


def keep_going(x):
    return x.sum() < 10


def grow(x):
    if x.max() > 5:  # error: JAX501
        return x
    return x + 1


def per_device(x):
    return float(x.sum())  # error: JAX503


def remat_block(x):
    if x.sum() > 0:  # error: JAX501
        return x
    return -x


def shape_only(x):
    if x.shape[0] > 1:  # a shape is static under every trace
        return x[1:]
    return x


def constant_flag(x):
    y = jnp.add(1, 1)
    if y > 0:  # error: JAX501
        return x
    return -x


def vectorized_constant(x):
    y = jnp.add(1, 1)
    if y > 0:  # vmap alone does not stage a constant: concrete
        return x
    return -x


def main():
    xs = jnp.arange(3.0) - 1
    jnp.vectorize(relu)(xs)
    jnp.vectorize(scaled, excluded={1})(xs, True)
    jnp.vectorize(clipped, excluded={"scale"})(xs, 1.0)
    np.vectorize(host_relu)(np.arange(3.0))
    nnx.cond(True, positive, positive, xs)
    nnx.fori_loop(0, 3, step, xs)
    nnx.while_loop(keep_going, grow, xs)
    nnx.pmap(per_device)(xs[None])
    eqx.filter_checkpoint(remat_block)(xs)
    eqx.filter_eval_shape(shape_only, xs)
    checkify.checkify(constant_flag)(xs)
    jnp.vectorize(vectorized_constant)(xs)


if __name__ == "__main__":
    import inspect

    import jax

    fns = globals()  # the functions by name: what the calls pass stays out of the analysis above
    try:
        fns["main"]()
    except jax.errors.TracerBoolConversionError:
        pass
    else:
        raise AssertionError("main() did not raise TracerBoolConversionError")
    # `main` stops at its first call: run each of its calls on its own
    expected = {
        "relu": jax.errors.TracerBoolConversionError,
        "clipped": jax.errors.TracerBoolConversionError,
        "positive": jax.errors.TracerBoolConversionError,
        "step": jax.errors.TracerBoolConversionError,
        "grow": jax.errors.TracerBoolConversionError,
        "per_device": jax.errors.ConcretizationTypeError,
        "remat_block": jax.errors.TracerBoolConversionError,
        "constant_flag": jax.errors.TracerBoolConversionError,
    }
    namespace = dict(fns)
    lines = [line.strip() for line in inspect.getsource(fns["main"]).splitlines()[1:]]
    exec(lines[0], namespace)  # xs = ...
    raised = set()
    for statement in lines[1:]:
        name = next((name for name in expected if f"({name}" in statement or f", {name}," in statement), None)
        if name is None:
            exec(statement, namespace)
            continue
        try:
            exec(statement, namespace)
        except expected[name]:
            raised.add(name)
        else:
            raise AssertionError(f"{statement!r} did not raise {expected[name].__name__}")
    assert raised == set(expected), raised
    print("ok")
