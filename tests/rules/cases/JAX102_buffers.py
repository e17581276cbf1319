# A write to an in-memory file (`io.StringIO`, `io.BytesIO`) held outside a compiled function
# runs only while JAX traces it: later calls never write (measured with JAX 0.10.2).
import functools
import io

import jax
import jax.numpy as jnp

LOG = io.StringIO()
RAW = io.BytesIO()


def loss(w, x):
    LOG.write("loss evaluated\n")  # error: JAX102
    return jnp.mean((x @ w) ** 2)


class Recorder:
    def __init__(self):
        self.sink = io.StringIO()

    @functools.partial(jax.jit, static_argnums=0)
    def step(self, x):
        self.sink.write("step\n")  # error: JAX102
        return x + 1.0


@jax.jit
def dumped(x):
    RAW.write(b"x")  # error: JAX102
    return x * 2.0


# near misses


@jax.jit
def described(x):
    buffer = io.StringIO()
    buffer.write(f"shape {x.shape}")  # its own buffer, read by no one else
    return x * 2.0, len(buffer.getvalue())


def logged(w, x):
    LOG.write("eager step\n")  # eager: written on every call
    return jnp.mean((x @ w) ** 2)


if __name__ == "__main__":
    grad = jax.jit(jax.value_and_grad(loss))
    w, x = jnp.ones(3), jnp.ones((5, 3))
    for _ in range(3):
        grad(w, x)
    assert LOG.getvalue().count("loss evaluated") == 1  # three steps, one line
    described(jnp.ones(2))
    logged(w, x)
    assert LOG.getvalue().count("eager step") == 1
    recorder = Recorder()
    for _ in range(3):
        dumped(jnp.ones(2))
        recorder.step(jnp.ones(2))
    assert recorder.sink.getvalue() == "step\n"
    assert RAW.getvalue() == b"x"
    print("ok")
