# A module that makes mutable arrays (`jax.new_ref`) may assign into any array it is handed,
# under `jit` too: a `jax.Ref` takes item assignment (measured with JAX 0.10.2), and a
# parameter, or a residual a custom derivative's `fwd` hands its `bwd`, may be one.
import jax
import jax.numpy as jnp


@jax.jit
def through_a_mutable_reference(x):
    ref = jax.new_ref(jnp.zeros(3))
    ref[0] = x
    ref[1] += x
    return ref[...]


@jax.jit
def fill(history, x):
    history[0] = x  # `history` may be a jax.Ref here
    return x


if __name__ == "__main__":
    print(through_a_mutable_reference(1.0))
    history = jax.new_ref(jnp.zeros(3))
    fill(history, 2.0)
    print(history[...])
