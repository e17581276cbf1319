# An attribute of module-level state changed inside a compiled function: a function's own
# attribute (`step.calls += 1`) or the one instance of a plain class of the module. The change
# happens while JAX traces, once per compilation, not on each call (measured with JAX 0.10.2).
import jax
import jax.numpy as jnp


class Counter:
    def __init__(self):
        self.n = 0


counter = Counter()


def momentum_step(w):
    momentum_step.calls += 1  # error: JAX104
    return w * 0.9


momentum_step.calls = 0
step = jax.jit(momentum_step)


@jax.jit
def scaled(w):
    counter.n += 1  # error: JAX104
    return w * 2.0


# near misses


def traced_step(w):
    traced_step.traces += 1  # counts traces on purpose
    return w


traced_step.traces = 0
traced = jax.jit(traced_step)


def mapped(w):
    mapped.calls += 1  # a bare vmap traces again on every call
    return w


mapped.calls = 0


def eager_too(w):
    eager_too.calls += 1  # also called eagerly below
    return w


eager_too.calls = 0
eager_jitted = jax.jit(eager_too)

if __name__ == "__main__":
    w = jnp.ones(2)
    for _ in range(3):
        step(w)
        scaled(w)
        jax.vmap(mapped)(w)
    eager_too(w)
    assert momentum_step.calls == 1 and counter.n == 1  # once, not three times
    assert mapped.calls == 3
    print(momentum_step.calls, counter.n, mapped.calls, eager_jitted(w))
