# The `update` of an optimizer built from a hand-written `optax.GradientTransformation`, compiled
# as a function of its own (`jax.jit(tx.update)`): `jit` traces the transformation's `update_fn`
# with the optimizer's arguments, so a global it reads is frozen at its first value (measured
# with JAX 0.10.2 and optax 0.2.8).
import jax
import jax.numpy as jnp
import optax

WEIGHT_DECAY = 0.0
SCALE = 1.0
EAGER_SCALE = 1.0


def decoupled_decay():
    def init_fn(params):
        return optax.EmptyState()

    def update_fn(updates, state, params):
        updates = jax.tree.map(lambda u, p: u + WEIGHT_DECAY * p, updates, params)  # error: JAX103
        return updates, state

    return optax.GradientTransformation(init_fn, update_fn)


def init_scale(params):
    return optax.EmptyState()


def update_scale(updates, state, params=None):
    return jax.tree.map(lambda u: u * SCALE, updates), state  # error: JAX103


tx = optax.chain(decoupled_decay(), optax.sgd(0.1))
update = jax.jit(tx.update)
scaler = optax.GradientTransformation(init_scale, update_scale)
scale_update = jax.jit(scaler.update)

params = {"w": jnp.ones(3)}
state = tx.init(params)
zero_grads = {"w": jnp.zeros(3)}
first, _ = update(zero_grads, state, params)
WEIGHT_DECAY = 0.5
second, _ = update(zero_grads, state, params)
assert jnp.allclose(second["w"], 0.0)  # the decay stayed off

scaled, _ = scale_update(params, scaler.init(params))
SCALE = 3.0
rescaled, _ = scale_update(params, scaler.init(params))
assert jnp.allclose(rescaled["w"], 1.0)  # still scaled by 1.0

CLIP = 1.0


def update_clip(updates, state, params=None):
    return jax.tree.map(lambda u: jnp.clip(u, -CLIP, CLIP), updates), state  # error: JAX103


clipper = optax.GradientTransformation(lambda params: optax.EmptyState(), update_clip)
clipped_tx = optax.chain(clipper, optax.sgd(1.0))  # chained by name, then compiled
clipped_update = jax.jit(clipped_tx.update)
big = {"w": jnp.full(3, 5.0)}
clipped, _ = clipped_update(big, clipped_tx.init(params), params)
CLIP = 4.0
reclipped, _ = clipped_update(big, clipped_tx.init(params), params)
assert jnp.allclose(reclipped["w"], -1.0)  # still clipped at 1.0

# near misses


def init_eager(params):
    return optax.EmptyState()


def update_eager(updates, state, params=None):
    return jax.tree.map(lambda u: u * EAGER_SCALE, updates), state  # run eagerly: reads it anew


eager_tx = optax.GradientTransformation(init_eager, update_eager)
eager_first, _ = eager_tx.update(params, eager_tx.init(params))
EAGER_SCALE = 2.0
eager_second, _ = eager_tx.update(params, eager_tx.init(params))
assert jnp.allclose(eager_second["w"], 2.0)

if __name__ == "__main__":
    print("ok")
