# An optax optimizer whose update reads the current parameters (decoupled weight decay, trust
# ratios: measured by running optax) raises `ValueError` when `update` is called without them
# (optax 0.2.8). Passing them, or an optimizer that does not read them, is fine.
import jax
import jax.numpy as jnp
import optax

params = {"w": jnp.ones(3)}
grads = jax.grad(lambda p: (p["w"] ** 2).sum())(params)


def adamw_step(params, grads):
    opt = optax.adamw(1e-3, weight_decay=1e-2)
    state = opt.init(params)
    updates, state = opt.update(grads, state)  # error: JAX618
    return optax.apply_updates(params, updates)


def chained_step(params, grads):
    opt = optax.chain(optax.clip_by_global_norm(1.0), optax.lamb(1e-3))
    state = opt.init(params)
    updates, state = opt.update(grads, state)  # error: JAX618
    return optax.apply_updates(params, updates)


# near misses


def adamw_with_params(params, grads):
    opt = optax.adamw(1e-3, weight_decay=1e-2)
    state = opt.init(params)
    updates, state = opt.update(grads, state, params)
    return optax.apply_updates(params, updates)


def adam_step(params, grads):
    opt = optax.adam(1e-3)
    state = opt.init(params)
    updates, state = opt.update(grads, state)  # adam reads no parameters
    return optax.apply_updates(params, updates)


if __name__ == "__main__":
    for hazard in (lambda: adamw_step(params, grads), lambda: chained_step(params, grads)):
        try:
            hazard()
        except ValueError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise ValueError")
    assert jnp.allclose(adamw_with_params(params, grads)["w"], 1.0 - 1e-3 - 1e-5)
    assert jnp.allclose(adam_step(params, grads)["w"], 1.0 - 1e-3)
    print("ok")
