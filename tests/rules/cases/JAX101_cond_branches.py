# A `print` in a branch of `lax.cond`/`lax.switch` runs when JAX traces the branches, and JAX
# traces every branch whichever is taken (measured with JAX 0.10.2: an eager `lax.cond` with a
# false predicate prints the true branch's text). `jax.debug.print` prints when the branch runs.
import jax
import jax.numpy as jnp
from jax import lax


def warmup(lr):
    print("warmup branch taken")  # error: JAX101
    return lr * 0.1


def keep(lr):
    jax.debug.print("keeping the rate")  # staged: prints when this branch runs
    return lr


def relu(x):
    print(f"relu on {x.shape}")  # error: JAX101
    return jnp.maximum(x, 0.0)


def tanh(x):
    return jnp.tanh(x)


@jax.jit
def step(x):
    print("compiling step for", x.shape)  # the trace-time idiom: static, and not a branch
    return x * 2.0


if __name__ == "__main__":
    lr = lax.cond(jnp.array(False), warmup, keep, jnp.float32(1.0))
    y = lax.switch(1, [relu, tanh], jnp.ones(3))
    print(lr, y, step(jnp.ones(2)))
