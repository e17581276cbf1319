# A function that consumes a key and then returns it hands its caller a used key: the caller's
# next split or draw reuses it. Returning the new key of a split is the way.
import jax


def reset(key):
    key, init_key = jax.random.split(key)
    return jax.random.uniform(init_key, (2,)), key


def step(key):
    key, noise_key = jax.random.split(key)
    noise = jax.random.normal(noise_key, (2,))
    position, _ = reset(key)  # consumes `key`, which is returned below
    return noise + position, key


def rollout(key):
    total = 0.0
    for _ in range(3):
        x, key = step(key)  # error: JAX301
        total = total + x
    return total


def good_step(key):
    key, noise_key = jax.random.split(key)
    noise = jax.random.normal(noise_key, (2,))
    position, key = reset(key)  # the new key `reset` hands back
    return noise + position, key


def good_rollout(key):
    total = 0.0
    for _ in range(3):
        x, key = good_step(key)
        total = total + x
    return total


def maybe_step(key, flag):
    if flag:
        _ = jax.random.normal(key, (2,))
    return key


def after_maybe(key, flag):
    key = maybe_step(key, flag)
    return jax.random.normal(key, (2,))  # consumed on one path only: not claimed


if __name__ == "__main__":
    jax.config.update("jax_debug_key_reuse", True)
    good = jax.jit(good_rollout)
    bad = jax.jit(rollout)
    assert good(jax.random.key(0)).shape == (2,)
    try:
        bad(jax.random.key(0))
    except jax.errors.KeyReuseError:
        pass
    else:
        raise AssertionError("rollout did not raise KeyReuseError")
    assert after_maybe(jax.random.key(0), False).shape == (2,)
    print("ok")
