# A module lifted with `nn.vmap` (or `nn.scan`) is still its class: `jax.jit(model.apply)` of an
# instance traces the class's `__call__`, so a global it reads is frozen at its first value
# (measured with JAX 0.10.2 and flax 0.12.8).
import flax.linen as nn
import jax
import jax.numpy as jnp

TEMPERATURE = 1.0
DECAY = 1.0


class Head(nn.Module):
    @nn.compact
    def __call__(self, x):
        return jax.nn.softmax(nn.Dense(3)(x) / TEMPERATURE)  # error: JAX103


class Step(nn.Module):
    @nn.compact
    def __call__(self, h, x):
        h = DECAY * h + nn.Dense(4)(x)  # error: JAX103
        return h, h


Ensemble = nn.vmap(Head, variable_axes={"params": 0}, split_rngs={"params": True}, in_axes=None, axis_size=4)
Scanner = nn.scan(Step, variable_broadcast="params", split_rngs={"params": False}, in_axes=0, out_axes=0)
x, xs, h0 = jnp.ones((2, 5)), jnp.ones((3, 2)), jnp.zeros(4)
ensemble, scanner = Ensemble(), Scanner()
ensemble_vars = ensemble.init(jax.random.key(0), x)
scanner_vars = scanner.init(jax.random.key(1), h0, xs)
predict = jax.jit(ensemble.apply)
encode = jax.jit(scanner.apply)
warm, first = predict(ensemble_vars, x), encode(scanner_vars, h0, xs)[0]
TEMPERATURE, DECAY = 100.0, 0.0
cold, second = predict(ensemble_vars, x), encode(scanner_vars, h0, xs)[0]

if __name__ == "__main__":
    assert jnp.allclose(warm, cold) and jnp.allclose(first, second)  # the old values
    print("ok")
