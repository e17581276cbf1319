# A parameter whose default is a module-level object: a call that leaves it out hands the
# trace that object, whose fields are compiled in (measured with JAX 0.10.2: the weight decay set
# after the first call is ignored).
import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass
class OptConfig:
    lr: float = 0.1
    weight_decay: float = 0.0


CFG = OptConfig()
FIXED = OptConfig(lr=0.5)


@jax.jit
def update(p, g, cfg=CFG):
    return p - cfg.lr * (g + cfg.weight_decay * p)  # error: JAX103


@jax.jit
def fixed_update(p, g, cfg=FIXED):
    return p - cfg.lr * g  # FIXED never changes


p = jnp.ones(2)
a = update(p, jnp.zeros(2))
f1 = fixed_update(p, jnp.ones(2))
CFG.weight_decay = 0.5
b = update(p, jnp.zeros(2))
f2 = fixed_update(p, jnp.ones(2))


if __name__ == "__main__":
    assert jnp.allclose(a, b)  # stale: the decay is still 0
    assert jnp.allclose(f1, f2)
    print("ok")
