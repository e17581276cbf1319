# `optax.stateless(f)` (and `stateless_with_tree_map`) builds an optimizer whose `update` runs
# `f` with the updates and the parameters: compiled through `jax.jit(tx.update)` or a jitted
# step, a global `f` reads is frozen and a Python `if` on the updates raises (measured with
# JAX 0.10.2 and optax 0.2.8).
import jax
import jax.numpy as jnp
import optax

CLIP = 1.0
SCALE = 1.0


def clip_updates(updates, params):
    return jax.tree.map(lambda u: jnp.clip(u, -CLIP, CLIP), updates)  # error: JAX103


def skip_large(g, p):
    if jnp.abs(g).max() > 10.0:  # error: JAX501
        return jnp.zeros_like(g)
    return g


def scale_updates(updates, params):
    return jax.tree.map(lambda u: SCALE * u, updates)  # updated eagerly: read on every call


clipped = optax.chain(optax.stateless(clip_updates), optax.sgd(1.0))
update = jax.jit(clipped.update)
skipping = optax.stateless_with_tree_map(skip_large)
scaled = optax.stateless(scale_updates)


@jax.jit
def skipping_step(grads, state, params):
    return skipping.update(grads, state, params)


def raises(thunk):
    try:
        thunk()
    except jax.errors.TracerBoolConversionError:
        return True
    return False


if __name__ == "__main__":
    params = {"w": jnp.zeros(2)}
    grads = {"w": jnp.array([5.0, -5.0])}
    state = clipped.init(params)
    update(grads, state, params)
    CLIP = 3.0
    assert bool(jnp.allclose(jnp.abs(update(grads, state, params)[0]["w"]), 1.0))  # CLIP ignored
    assert raises(lambda: skipping_step(grads, skipping.init(params), params))
    state = scaled.init(params)
    before = scaled.update(grads, state, params)[0]["w"]
    SCALE = 2.0
    assert not bool(jnp.allclose(scaled.update(grads, state, params)[0]["w"], before))
    print("ok")
