# An optax schedule runs inside the optimizer's `update`: where a compiled function updates the
# optimizer, what the schedule reads is compiled into that program (measured with JAX 0.10.2 and
# optax 0.2.8: BASE_LR set to 0 after the first call leaves the update unchanged).
import jax
import jax.numpy as jnp
import optax

BASE_LR = 0.1
WARMUP = 100
EAGER_LR = 0.1


def schedule(count):
    return BASE_LR * 0.5 ** (count // WARMUP)  # error: JAX103


def eager_schedule(count):
    return EAGER_LR * 0.5 ** (count // WARMUP)


tx = optax.sgd(schedule)
eager_tx = optax.sgd(eager_schedule)
params = jnp.ones(2)
state = tx.init(params)
eager_state = eager_tx.init(params)
update = jax.jit(lambda g, s: tx.update(g, s))
u0, _ = update(jnp.ones(2), state)
e0, _ = eager_tx.update(jnp.ones(2), eager_state)
BASE_LR = 0.0
EAGER_LR = 0.0  # the optimizer is run eagerly: the next update reads the new rate
u1, _ = update(jnp.ones(2), state)
e1, _ = eager_tx.update(jnp.ones(2), eager_state)


if __name__ == "__main__":
    assert jnp.allclose(u0, u1) and float(u1[0]) != 0.0  # stale
    assert float(e1[0]) == 0.0
    print("ok")
