# An eager function of the module (a `main`, a training loop) that calls a jitted function,
# changes a module-level dict entry or class attribute the function reads, and calls it again
# with the same arguments: the second call reuses the program compiled with the old value
# (measured with JAX 0.10.2: the results are equal).
import jax
import jax.numpy as jnp

CONFIG = {"lr": 0.1, "wd": 0.0}
LIMITS = {"high": 1.0}
WEIGHTS = {"scale": 2.0}
OPTIONS = {"eps": 1e-6}
RATES = {"lr": 0.1, "wd": 0.0}
STEPS = {"lr": 0.1}
LOCAL = {"lr": 0.1}


class Sampling:
    temperature = 1.0


@jax.jit
def update(p, g):
    return p - CONFIG["lr"] * g  # error: JAX103


@jax.jit
def sample(logits):
    return logits / Sampling.temperature  # error: JAX103


@jax.jit
def clip(x):
    return jnp.minimum(x, LIMITS["high"])  # error: JAX103


@jax.jit
def weigh(x):
    return x * WEIGHTS["scale"]  # the change comes before the first call


@jax.jit
def stabilise(x):
    return x + OPTIONS["eps"]  # the cache is cleared after the change


@jax.jit
def decay(p, g):
    return p - RATES["lr"] * g  # only RATES["wd"] changes


@jax.jit
def descend(p, g):
    return p - STEPS["lr"] * g  # called again with other arguments only


@jax.jit
def local_step(p, g):
    return p - LOCAL["lr"] * g  # the dict changed is a local one


def train(p, g):
    p1 = update(p, g)
    CONFIG["lr"] = 0.01
    p2 = update(p, g)
    return p1, p2


def generate(logits):
    first = sample(logits)
    Sampling.temperature = 0.5
    return first, sample(logits)


def epochs(x):
    for _ in range(3):
        clip(x)
        LIMITS["high"] = LIMITS["high"] / 2


def configure(x):
    WEIGHTS["scale"] = 3.0
    return weigh(x), weigh(x)


def other_key(p, g):
    a = decay(p, g)
    RATES["wd"] = 0.1
    return a, decay(p, g)


def other_arguments(p, g):
    a = descend(p, g)
    STEPS["lr"] = 0.5
    return a, descend(p * 2, g)  # other arguments may trace again: not claimed


def cleared(x):
    a = stabilise(x)
    OPTIONS["eps"] = 1e-3
    stabilise.clear_cache()
    return a, stabilise(x)


def shadowed(p, g):
    LOCAL = {"lr": 1.0}  # a local dict, not the module's
    a = local_step(p, g)
    LOCAL["lr"] = 2.0
    return a, local_step(p, g)


if __name__ == "__main__":
    fns = globals()  # the functions by name: what the calls pass stays out of the analysis above
    p, g = jnp.ones(2), jnp.ones(2)
    p1, p2 = fns["train"](p, g)
    assert jnp.allclose(p1, 0.9) and jnp.allclose(p2, 0.9)  # not 0.99: the old rate
    first, second = fns["generate"](jnp.ones(2))
    assert jnp.array_equal(first, second)  # not doubled: the old temperature
    fns["epochs"](jnp.ones(2))
    assert fns["LIMITS"]["high"] == 0.125 and jnp.array_equal(fns["clip"](jnp.ones(2)), jnp.ones(2))  # the first limit
    a, b = fns["configure"](jnp.ones(2))
    assert jnp.allclose(a, 3.0) and jnp.allclose(b, 3.0)
    a, b = fns["other_key"](p, g)
    assert jnp.allclose(a, 0.9) and jnp.allclose(b, 0.9)
    a, b = fns["cleared"](jnp.zeros(2))
    assert jnp.allclose(a, 1e-6) and jnp.allclose(b, 1e-3)
    a, b = fns["shadowed"](p, g)
    assert jnp.allclose(a, 0.9) and jnp.allclose(b, 0.9)
    print("ok")
