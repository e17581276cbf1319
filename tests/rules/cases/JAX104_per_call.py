"""Side effects under transformations that trace on every call: a bare `vmap` runs the Python
body each time (with concrete unbatched values), so a counter counts calls and a print of a
static value prints every time; only printing or storing a tracer goes wrong. Under `jit`, in
`lax` bodies and under `jax.checkpoint` (which caches its trace on the function, even called
eagerly: measured with JAX 0.10.2) the body runs once per trace."""

import itertools
import random
import time
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

calls = 0
history = []
batches = itertools.count()
scale = 1.0


def set_scale(value):
    global scale
    scale = value


@jax.vmap
def batched(x):
    global calls
    calls += 1  # runs on every call of the vmapped function: fine
    history.append(x)  # error: JAX104
    history.append(x.shape)  # a static value: fine
    offset = next(batches)  # fine
    noise = random.random()  # fine
    started = time.time()  # fine
    print("shape", x.shape)  # static: fine
    print(f"value {x}")  # error: JAX101
    return x * scale + offset + noise + started


@partial(jax.vmap, in_axes=(0, None))
def unbatched(x, y):
    print(y)  # `y` is not batched: a concrete value, printed each call
    return x + y


@jax.checkpoint
def rematerialized(x):
    global calls
    calls += 1  # error: JAX104 (the trace is cached: it counts once)
    offset = next(batches)  # error: JAX106
    print(x)  # error: JAX101
    return x * scale + offset  # error: JAX103


@jax.jit
def compiled(x):
    global calls
    calls += 1  # error: JAX104
    history.append(1.0)  # error: JAX104
    offset = next(batches)  # error: JAX106
    noise = random.random()  # error: JAX105
    print("compiling", x.shape, x.dtype)  # static: the trace-time debugging idiom
    return x * scale + offset + noise  # error: JAX103


def body(carry, x):
    global calls
    calls += 1  # error: JAX104
    return carry + x, x


def run(xs):
    return lax.scan(body, 0.0, xs)


def attention(cfg, x):
    global calls
    calls += 1  # fine: `jax.checkpoint` gets a new `partial` on every call, which misses its cache
    return x * cfg


def attend(x):
    return jax.checkpoint(partial(attention, 2.0))(x)


def jittered(x):
    return jax.checkpoint(lambda h: h * random.random())(x)  # fine: a new lambda on every call


def residual(x):
    global calls
    calls += 1  # fine: `jax.named_call` makes a new function on each call of `named`
    return x * 2.0


def named(x):
    return jax.checkpoint(jax.named_call(residual, name="residual"))(x)


if __name__ == "__main__":
    import contextlib
    import io

    fns = globals()  # the functions by name: what the calls pass stays out of the analysis above

    def printed(call):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            call()
        return out.getvalue().splitlines()

    def counted(call):
        before = fns["calls"]
        lines = printed(call)
        return fns["calls"] - before, lines

    x = jnp.ones(2)
    # a bare vmap runs the body on every call
    count, lines = counted(lambda: (fns["batched"](x), fns["batched"](x)))
    assert count == 2 and len(lines) == 4, (count, lines)
    assert all("Tracer" in line for line in lines if line.startswith("value")), lines  # a tracer printed
    assert any(isinstance(item, jax.core.Tracer) for item in history)  # and one stored
    assert printed(lambda: (fns["unbatched"](x, 3.0), fns["unbatched"](x, 3.0))) == ["3.0", "3.0"]
    # `jax.checkpoint`, eager: the body runs once, its trace is reused
    first = []
    count, lines = counted(lambda: first.append(fns["rematerialized"](x)))
    assert count == 1 and len(lines) == 1 and "Tracer" in lines[0], (count, lines)
    fns["set_scale"](3.0)
    count, lines = counted(lambda: first.append(fns["rematerialized"](x)))
    assert count == 0 and lines == [] and jnp.array_equal(first[0], first[1])  # old scale, old offset
    # `jit`: once per trace
    fns["set_scale"](1.0)
    stored = len(history)
    count, lines = counted(lambda: first.extend([fns["compiled"](x), fns["compiled"](x)]))
    assert count == 1 and len(history) == stored + 1 and len(lines) == 1, (count, lines)
    fns["set_scale"](5.0)
    first.append(fns["compiled"](x))
    assert jnp.array_equal(first[2], first[3]) and jnp.array_equal(first[3], first[4])  # same noise, offset, scale
    # a `lax.scan` body: once per trace, not once per step
    count, _ = counted(lambda: fns["run"](jnp.ones(3)))
    assert count == 1
    # near misses: a new function on every call
    count, _ = counted(lambda: (fns["attend"](x), fns["attend"](x)))
    assert count == 2
    assert not jnp.array_equal(fns["jittered"](x), fns["jittered"](x))
    count, _ = counted(lambda: (fns["named"](x), fns["named"](x)))
    assert count == 2
    print("ok")
