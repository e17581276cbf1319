# An optax optimizer whose state carries what earlier steps did (Adam's moments and step
# count), initialised afresh on every iteration of the loop that updates it: each step starts
# from a fresh state (measured with optax 0.2.8: the count stays at 1). Initialised once, or a
# stateless `optax.sgd`, or a new model per iteration, is fine.
import jax
import jax.numpy as jnp
import optax


def loss(w):
    return jnp.sum((w - 3.0) ** 2)


def reset_every_step():
    opt = optax.adam(0.1)
    w = jnp.array(1.0)
    for _ in range(5):
        state = opt.init(w)  # error: JAX205
        updates, state = opt.update(jax.grad(loss)(w), state)
        w = optax.apply_updates(w, updates)
    return int(state[0].count)


def reset_in_chain():
    opt = optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(0.1))
    w = jnp.array(1.0)
    step = 0
    while step < 5:
        state = opt.init(w)  # error: JAX205
        updates, state = opt.update(jax.grad(loss)(w), state, w)
        w = optax.apply_updates(w, updates)
        step += 1
    return w


# near misses


def initialised_once():
    opt = optax.adam(0.1)
    w = jnp.array(1.0)
    state = opt.init(w)
    for _ in range(5):
        updates, state = opt.update(jax.grad(loss)(w), state)
        w = optax.apply_updates(w, updates)
    return int(state[0].count)


def stateless():
    opt = optax.sgd(0.1)
    w = jnp.array(1.0)
    for _ in range(5):
        state = opt.init(w)  # sgd without momentum keeps no state
        updates, state = opt.update(jax.grad(loss)(w), state)
        w = optax.apply_updates(w, updates)
    return w


def one_step_per_model(models):
    opt = optax.adam(0.1)
    stepped = []
    for w in models:
        state = opt.init(w)  # a new model each iteration: a new state is right
        updates, state = opt.update(jax.grad(loss)(w), state)
        w = optax.apply_updates(w, updates)
        stepped.append(w)
    return stepped


if __name__ == "__main__":
    print(reset_every_step())
    print(reset_in_chain())
    print(initialised_once())
    print(stateless())
    print(one_step_per_model([jnp.array(1.0), jnp.array(2.0)]))
