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
