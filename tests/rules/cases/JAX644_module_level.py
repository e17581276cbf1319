# Straight-line module code: the value a name holds where optax's `init` runs is the last plain
# assignment before it, even where the name is rebound later (measured with equinox 0.13.8 and
# optax 0.2.8: the marked `init` raises `TypeError`). Near misses: the name was rebound to the
# arrays before, or bound on one branch only.
import sys

import equinox as eqx
import jax
import jax.numpy as jnp
import optax

model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.key(0))
optim = optax.adam(1e-3)
try:
    opt_state = optim.init(model)  # error: JAX644
except TypeError:
    print("init raised TypeError")

params = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.key(1))
params = eqx.filter(params, eqx.is_array)
opt_state = optim.init(params)

if len(sys.argv) > 5:
    net = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.key(2))
else:
    net = jnp.zeros(3)
opt_state = optim.init(net)


@eqx.filter_jit
def step(model, opt_state, x, y):
    grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
    updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    return eqx.apply_updates(model, updates), opt_state


model, opt_state = step(model, optim.init(eqx.filter(model, eqx.is_array)), jnp.ones((4, 2)), jnp.zeros((4, 1)))
print("ok")


if __name__ == "__main__":
    assert opt_state is not None and model is not None
    try:
        globals()["optim"].init(eqx.nn.MLP(2, 1, 8, 2, key=jax.random.key(3)))
    except TypeError:
        pass
    else:
        raise AssertionError("init of a whole equinox model did not raise TypeError")
    print("ok")
