# optax maps over every leaf: an equinox MLP holds its activation functions, and `init` or
# `optax.apply_updates` on the whole module raises `TypeError` (measured with equinox 0.13.8
# and optax 0.2.8); `eqx.filter(model, eqx.is_array)` and `eqx.apply_updates` work.
import equinox as eqx
import jax
import jax.numpy as jnp
import optax

model = eqx.nn.MLP(2, 1, 4, 1, key=jax.random.key(0))
opt = optax.adam(1e-3)


def loss(m, x):
    return jnp.sum(m(x))


def whole_init():
    return opt.init(model)  # error: JAX644


def whole_apply(state):
    grads = eqx.filter_grad(loss)(model, jnp.ones(2))
    updates, state = opt.update(grads, state, eqx.filter(model, eqx.is_array))
    return optax.apply_updates(model, updates)  # error: JAX644


# near misses


def filtered_init():
    return opt.init(eqx.filter(model, eqx.is_array))


def equinox_apply(state):
    grads = eqx.filter_grad(loss)(model, jnp.ones(2))
    updates, state = opt.update(grads, state, eqx.filter(model, eqx.is_array))
    return eqx.apply_updates(model, updates)


def linear_init():
    return opt.init(eqx.nn.Linear(2, 2, key=jax.random.key(1)))  # arrays only


if __name__ == "__main__":
    state = filtered_init()
    equinox_apply(state), linear_init()
    for failing in (whole_init, lambda: whole_apply(state)):
        try:
            failing()
        except TypeError:
            pass
        else:
            raise AssertionError("expected TypeError")
