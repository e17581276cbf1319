# A call that consumes one key of a dict passed whole consumes that key alone: two calls that
# consume different keys of it reuse nothing, two that consume the same one do (measured with
# JAX 0.10.2 under jax_debug_key_reuse).
import jax
import jax.numpy as jnp
from jax import lax


def split_rng(i, d):
    rng, sub = jax.random.split(d["rng"])
    return {**d, "x": d["x"] + jax.random.normal(sub, ()), "rng": rng}


def split_noise_back(i, d):
    noise, sub = jax.random.split(d["noise"])
    return {**d, "x": d["x"] + jax.random.normal(sub, ()), "noise": noise}


def use_rng(d):
    return jax.random.normal(d["rng"], ())


def use_noise(d):
    return jax.random.normal(d["noise"], ())


@jax.jit
def run_twice(d):
    return use_rng(d), use_rng(d)  # error: JAX301


@jax.jit
def loop_twice(d):
    return lax.fori_loop(0, 3, split_rng, d), lax.fori_loop(0, 3, split_rng, d)  # error: JAX301


# near misses


@jax.jit
def run_helpers(d):
    return use_rng(d), use_noise(d)  # different keys of `d`


@jax.jit
def run_loops(d):
    return lax.fori_loop(0, 3, split_rng, d), lax.fori_loop(0, 3, split_noise_back, d)


def fresh():
    return {"rng": jax.random.key(0), "noise": jax.random.key(1), "x": jnp.float32(0)}


if __name__ == "__main__":
    jax.config.update("jax_debug_key_reuse", True)
    for function in (run_twice, loop_twice):
        try:
            function(fresh())
        except jax.errors.KeyReuseError:
            pass
        else:
            raise AssertionError("expected KeyReuseError")
    run_helpers(fresh())
    run_loops(fresh())
    print("ok")
