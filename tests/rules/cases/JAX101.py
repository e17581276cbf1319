import functools

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def normalize(x):
    norm = jnp.linalg.norm(x)
    print("norm:", norm)  # error: JAX101
    return x / norm


@functools.partial(jax.jit, static_argnames=("verbose",))
def step(x, verbose):
    if verbose:
        print("compiling step")  # static: the idiom for seeing when JAX compiles
    return x + 1


def scan_body(carry, x):
    print(carry)  # error: JAX101
    return carry + x, x


def run(xs):
    return lax.scan(scan_body, 0.0, xs)


batched = jax.vmap(lambda v: print(v) or v)  # error: JAX101


# --- near misses: print outside traced code, or where values are concrete ---


def report(step, loss):
    print(f"step {step}: loss={float(loss):.4f}")


def loss_fn(w):
    print("eager grad: runs every call", w)
    return (w**2).sum()


grad_fn = jax.grad(loss_fn)


@jax.jit
def debug_print_ok(x):
    jax.debug.print("x = {}", x)
    return x


def host_side(x):
    print("on the host with concrete values", x)
    return x


@jax.jit
def with_callback(x):
    jax.debug.callback(host_side, x)
    return x


def shadowed(print):
    @jax.jit
    def inner(x):
        print(x)
        return x

    return inner


def shapes_of(params):
    # jax.eval_shape and jax.make_jaxpr only trace: printing while tracing is all they can do
    def init(p):
        print("initialising", p)

        def layer(q):
            print("layer", q)
            return q * 2

        return layer(p)

    def program(p):
        print("tracing", p)
        return p + 1

    return jax.eval_shape(init, params), jax.make_jaxpr(program)(params)


def traced_step(p):
    print("step", p)  # error: JAX101
    return p + 1


fast_step = jax.jit(traced_step)


def shapes_and_run(params):
    return jax.eval_shape(traced_step, params), fast_step(params)


if __name__ == "__main__":
    import contextlib
    import io

    named = globals()  # the functions by name: what the calls pass stays out of the analysis above

    def printed(call):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            call()
        return out.getvalue().splitlines()

    x = jnp.ones(2)
    lines = printed(lambda: (named["normalize"](x), named["normalize"](x)))
    assert len(lines) == 1 and "Tracer" in lines[0], lines  # once, at tracing, a tracer
    lines = printed(lambda: (named["run"](jnp.ones(3)), named["run"](jnp.ones(3))))
    assert len(lines) == 1 and "Tracer" in lines[0], lines
    lines = printed(lambda: named["batched"](jnp.ones(3)))
    assert len(lines) == 1 and "Tracer" in lines[0], lines
    lines = printed(lambda: (named["fast_step"](x), named["fast_step"](x)))
    assert len(lines) == 1 and "Tracer" in lines[0], lines
    lines = printed(lambda: named["shapes_and_run"](jnp.zeros(3)))
    assert lines and all("Tracer" in line for line in lines), lines
    # near misses
    assert printed(lambda: (named["step"](x, verbose=True), named["step"](x, verbose=True))) == ["compiling step"]
    assert printed(lambda: named["report"](3, jnp.float32(0.5))) == ["step 3: loss=0.5000"]
    assert len(printed(lambda: (named["grad_fn"](x), named["grad_fn"](x)))) == 2  # every call
    assert printed(lambda: jax.block_until_ready(named["debug_print_ok"](x))) == ["x = [1. 1.]"]
    lines = printed(lambda: jax.block_until_ready(named["with_callback"](x)))
    assert lines == ["on the host with concrete values [1. 1.]"], lines
    seen = []
    named["shadowed"](seen.append)(x)
    assert len(seen) == 1
    assert len(printed(lambda: named["shapes_of"](jnp.zeros(2)))) == 3
    print("ok")
