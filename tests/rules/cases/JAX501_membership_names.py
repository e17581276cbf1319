# `tok in STOP_TOKENS` on a traced token compares it with each item (`==`) and asks `bool()` of
# the traced answer: `TracerBoolConversionError` (measured with JAX 0.10.2), whether the tuple
# is written in place or bound to a name, its items numbers or names bound to numbers.
import jax
import jax.numpy as jnp
from jax import lax

EOS, PAD = 2, 0
STOP_TOKENS = (EOS, PAD)
LIMITS = [1, 3]
MODES = ("relu", "tanh")


def count_until_stop(tokens):
    def step(carry, tok):
        n, done = carry
        if tok in STOP_TOKENS:  # error: JAX501
            done = True
        return (n + jnp.where(done, 0, 1), done), None

    (n, _), _ = lax.scan(step, (0, False), tokens)
    return n


@jax.jit
def clipped(x):
    return x * 2 if x in LIMITS else x  # error: JAX501


# near misses


@jax.jit
def stop_mask(tokens):
    return jnp.isin(tokens, jnp.array(STOP_TOKENS))


def pick(mode, x):
    return jax.nn.relu(x) if mode in MODES[:1] else jnp.tanh(x)  # a Python string


if __name__ == "__main__":
    print(stop_mask(jnp.array([5, 2, 0])), pick("relu", jnp.ones(2)))
    for failing in (lambda: count_until_stop(jnp.array([5, 7, 2])), lambda: clipped(jnp.float32(1.0))):
        try:
            failing()
        except jax.errors.TracerBoolConversionError:
            print("TracerBoolConversionError")
        else:
            raise AssertionError("expected TracerBoolConversionError")
