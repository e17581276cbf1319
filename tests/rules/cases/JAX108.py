"""Traced values formatted into strings that the code uses as data."""

import logging
import re
import warnings

import jax
import jax.numpy as jnp
from jax import lax

SITES = {}


def record(name, value):
    return value


def body(carry, x):
    i, total = carry
    total = record("x_{}".format(i), total + x)  # error: JAX108
    total = record(f"y_{i}", total)  # error: JAX108
    total = record("z_%s" % i, total)  # error: JAX108
    total = record(str(total), total)  # error: JAX108
    cache = {f"step_{i}": total}  # error: JAX108
    return (i + 1, total), cache[next(iter(cache))]


# --- near misses ---


def numeric_conversion(carry, x):
    i, total = carry
    return (i + 1, record("w_%d" % i, total + x)), total  # error: JAX108 (%d raises TypeError on a tracer)


def scan_numeric(xs):
    return lax.scan(numeric_conversion, (0, 0.0), xs)


def scan_all(xs):
    return lax.scan(body, (0, 0.0), xs)


@jax.jit
def messages(x, n):
    # a message, not data: print is JAX101, logging JAX102; an exception or warning text
    logging.getLogger(__name__).info(f"x is {x}")
    warnings.warn(f"x is {x}")
    if x.shape[0] > 4:
        raise ValueError(f"too long: {x}")
    label = f"shape_{x.shape}"  # static: a shape
    record(label, x)
    record(f"rows_{x.shape[0]}", x)  # static
    return record(f"n={jnp.ndim(x)}", x)  # static: ndim of a tracer is an int


def eager(i, total):
    return record(f"x_{i}", total)  # not traced: the value is formatted


def under_grad(x):
    return record(f"x_{x}", x) * 2.0  # a bare grad formats the primal value


slope = jax.grad(under_grad)


@jax.jit
def decayed(params):
    # a key path is static: its string names the leaf
    return jax.tree_util.tree_map_with_path(lambda path, p: p * (0.0 if re.search("bias", str(path)) else 0.9), params)


@jax.jit
def debug_printed(w, x):
    loss = jnp.mean((x @ w) ** 2)
    jax.debug.print(f"loss = {loss}")  # error: JAX108
    jax.debug.print(f"loss = {loss:.3f}")  # error: JAX108
    jax.debug.print("loss = {}".format(loss))  # error: JAX108
    jax.debug.print("loss = {}", loss)
    jax.debug.print(f"shape = {x.shape}, {x.dtype}")
    return loss


checkpoints = {}


def save(tag, params):
    checkpoints[tag] = params  # error: JAX104 (stores a tracer while tracing)


@jax.jit
def concatenated(step, w):
    save("ckpt-" + str(step), w)  # error: JAX108
    print("step " + str(step))  # a message (JAX101 speaks of it)
    return step + 1, w


@jax.jit
def debug_printed_more(s):
    jax.debug.print("sum {:.1f}".format(s))  # error: JAX108
    jax.debug.print(fmt=f"sum {s}")  # error: JAX108
    jax.debug.print("sum {:.1f}", s)
    return s


if __name__ == "__main__":
    import contextlib
    import inspect
    import io

    fns = globals()  # the functions by name: what the calls pass stays out of the analysis above

    def printed(call):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            jax.block_until_ready(call())
        return out.getvalue()

    def marked(function):
        return [line.strip().split("  #")[0] for line in inspect.getsource(function).splitlines() if "# error:" in line]

    def traced(statement, names, **values):
        """Run one statement of the file under `jax.jit`, with `values` traced; return its namespace."""
        namespace = {"record": lambda name, value: names.append(name) or value, "jax": jax, "next": next, "iter": iter}

        def run(values):
            namespace.update(values)
            exec(statement, namespace)
            return 0

        jax.block_until_ready(fns["jax"].jit(run)(values))
        return namespace

    # `body`: every marked line builds its string from a tracer
    lines = marked(fns["body"])
    assert len(lines) == 5
    for statement in lines:
        names = []
        namespace = traced(statement, names, i=jnp.int32(0), total=jnp.float32(0.0), x=jnp.float32(1.0))
        keys = names if names else list(namespace["cache"])
        assert len(keys) == 1 and "Tracer" in keys[0], (statement, keys)
    assert fns["scan_all"](jnp.ones(3))[0][1] == 3.0
    try:
        fns["scan_numeric"](jnp.ones(3))
    except TypeError:
        pass
    else:
        raise AssertionError("scan_numeric did not raise TypeError")
    # `debug_printed` and `debug_printed_more`: the tracer's text is printed, or a format spec raises
    for function, values in (("debug_printed", {"loss": jnp.float32(1.0)}), ("debug_printed_more", {"s": jnp.float32(1.0)})):
        for statement in marked(fns[function]):
            if ":.3f}" in statement or "{:.1f}" in statement:
                try:
                    traced(statement, [], **values)
                except TypeError:
                    continue
                raise AssertionError(f"{statement!r} did not raise TypeError")
            output = printed(lambda statement=statement, values=values: traced(statement, [], **values) and 0)
            assert "Tracer" in output, (statement, output)
    for function in ("debug_printed", "debug_printed_more"):
        try:
            fns[function](*((jnp.ones(2), jnp.ones((1, 2))) if function == "debug_printed" else (jnp.float32(1.0),)))
        except TypeError:
            pass
        else:
            raise AssertionError(f"{function} did not raise TypeError")
    # `concatenated`: the checkpoint is stored under a tracer's text, and holds a tracer
    output = printed(lambda: fns["concatenated"](1, jnp.ones(2)))
    (tag, kept), = checkpoints.items()
    assert "Tracer" in tag and isinstance(kept, jax.core.Tracer) and "Tracer" in output
    # near misses
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert fns["messages"](jnp.ones(3), 1).tolist() == [1.0, 1.0, 1.0]
    assert float(fns["eager"](1, jnp.float32(2.0))) == 2.0
    assert float(fns["slope"](1.0)) == 2.0
    decayed_params = fns["decayed"]({"bias": jnp.ones(1), "w": jnp.ones(1)})
    assert decayed_params["bias"].tolist() == [0.0] and jnp.allclose(decayed_params["w"], 0.9)
    for statement in ('jax.debug.print("loss = {}", loss)', 'jax.debug.print("sum {:.1f}", loss)'):
        output = printed(lambda statement=statement: traced(statement, [], loss=jnp.float32(1.0)) and 0)
        assert "Tracer" not in output and "1" in output, output
    print("ok")
