# `jax.export.export(jitted)(spec)` traces the function then: the exported program keeps the
# value a global had at the export, whatever it holds when the program is later called
# (measured with JAX 0.10.2).
import jax
import jax.numpy as jnp
from jax import export

TEMPERATURE = 1.0
FLOOR = 0.0


def policy(logits):
    return jax.nn.softmax(logits / TEMPERATURE)  # error: JAX103


def clipped(x):
    return jnp.maximum(x, FLOOR)  # changed before the export only


spec = jax.ShapeDtypeStruct((3,), jnp.float32)
exported = export.export(jax.jit(policy))(spec)
TEMPERATURE = 100.0
logits = jnp.array([1.0, 2.0, 3.0])
served = exported.call(logits)

FLOOR = 1.0
floored = export.export(jax.jit(clipped))(spec).call(logits)

if __name__ == "__main__":
    assert jnp.allclose(served, jax.nn.softmax(logits))  # the temperature exported: 1.0
    assert jnp.allclose(floored, jnp.maximum(logits, 1.0))
    print("ok")
