# A module-level key drawn from in a jitted function is a constant of its program: every call
# draws the same numbers. A function the program calls once draws once.
import jax

WEIGHTS_KEY = jax.random.key(0)
BIASES_KEY = jax.random.key(1)


@jax.jit
def init_weights():
    return jax.random.normal(WEIGHTS_KEY, (3, 3)) * 0.1  # called once


@jax.jit
def init_biases():
    return jax.random.normal(BIASES_KEY, (3,)) * 0.1  # error: JAX302


def main():
    weights = init_weights()
    biases = [init_biases() for _ in range(2)]  # the same biases twice
    return weights, biases


if __name__ == "__main__":
    main()
