# A set or dict finds a key by its hash, and a tracer has none (measured with JAX 0.10.2:
# `TypeError: unhashable type` under jit, vmap and a bare grad alike).
import jax
import jax.numpy as jnp

RARE_CLASSES = {3, 7}
RATES = {0: 0.1, 1: 0.01}
DEFAULT_LABEL = jnp.int32(3)


def class_weight(label, loss):
    if label in RARE_CLASSES:  # error: JAX503
        return 5.0 * loss
    return loss


@jax.jit
def rate(step):
    return RATES.get(step, 0.001)  # error: JAX503


@jax.jit
def odd_one(label):
    return jnp.where(label not in {1, 3, 5}, 1.0, 0.0)  # error: JAX503


def penalised(w):
    seen = set()
    seen.add(w)  # error: JAX503
    return jnp.sum(w)


@jax.jit
def default_weight(loss):
    return loss * (5.0 if DEFAULT_LABEL in RARE_CLASSES else 1.0)  # error: JAX503 (a JAX array)


@jax.jit
def fingerprint(x):
    return hash(x)  # error: JAX503


# near misses


@jax.jit
def by_rank(x):
    if x.ndim in {1, 2}:  # a Python int
        return x * 2
    return x


@jax.jit
def named_rate(x, name="slow"):
    return x * RATES.get(len(name), 0.5)


@jax.jit
def isin_weight(label, loss):
    return jnp.where(jnp.isin(label, jnp.array([3, 7])), 5.0 * loss, loss)


def eager_weight(label, loss):
    return 5.0 * loss if int(label) in RARE_CLASSES else loss


if __name__ == "__main__":
    for call in (
        lambda: jax.vmap(class_weight)(jnp.array([3, 1]), jnp.array([0.2, 0.4])),
        lambda: rate(0),
        lambda: odd_one(3),
        lambda: jax.grad(penalised)(1.0),
        lambda: fingerprint(1.0),
        lambda: default_weight(1.0),
    ):
        try:
            call()
        except TypeError as error:
            assert "unhashable" in str(error), error
        else:
            raise AssertionError("expected TypeError")
    assert by_rank(jnp.ones(2)).tolist() == [2.0, 2.0]
    assert float(named_rate(1.0)) == 0.5
    assert isin_weight(jnp.array([3, 1]), jnp.array([1.0, 1.0])).tolist() == [5.0, 1.0]
    assert float(eager_weight(jnp.int32(3), 1.0)) == 5.0
    print("ok")
