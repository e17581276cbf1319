# Weight decay chained after an optimizer (or after `scale_by_learning_rate`) is added to the
# finished step: unscaled and with the wrong sign, so the weights grow (measured with optax 0.2.8:
# each marked chain, with zero gradients, grows a weight of 2.0). The decay before the learning
# rate, or `adamw`, shrinks it.
import jax.numpy as jnp
import optax

after_adam = optax.chain(optax.adam(1e-2), optax.add_decayed_weights(0.1))  # error: JAX645
after_sgd = optax.chain(
    optax.sgd(1e-2, momentum=0.9),
    optax.clip_by_global_norm(1.0),
    optax.add_decayed_weights(0.1),  # error: JAX645
)
after_scaling = optax.chain(
    optax.scale_by_adam(),
    optax.scale_by_learning_rate(1e-2),
    optax.add_decayed_weights(0.1),  # error: JAX645
)

adam_then = optax.adam(1e-2)
named = optax.chain(adam_then, optax.add_decayed_weights(0.1))  # error: JAX645

# near misses

before_adam = optax.chain(optax.add_decayed_weights(0.1), optax.adam(1e-2))
adamw_style = optax.chain(
    optax.scale_by_adam(), optax.add_decayed_weights(0.1), optax.scale_by_learning_rate(1e-2)
)
adamw = optax.adamw(1e-2, weight_decay=0.1)
no_decay = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-2))


def final_weight(tx):
    params = {"w": jnp.full((3,), 2.0)}
    state = tx.init(params)
    for _ in range(5):
        updates, state = tx.update({"w": jnp.zeros(3)}, state, params)
        params = optax.apply_updates(params, updates)
    return float(params["w"][0])


if __name__ == "__main__":
    for grows in (after_adam, after_sgd, after_scaling, named):
        assert final_weight(grows) > 2.0
    for shrinks in (before_adam, adamw_style, adamw):
        assert final_weight(shrinks) < 2.0
    assert final_weight(no_decay) == 2.0
    print("ok")
