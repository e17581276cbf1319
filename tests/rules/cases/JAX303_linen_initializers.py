# An initializer given to a linen module's `self.param` that ignores the key flax calls it with
# and draws from a fixed seed: every layer gets the same values (measured with flax 0.12.8: two
# `NoisyDense` layers, identical kernels). Drawing from the key it is given is fine.
import flax.linen as nn
import jax
import jax.numpy as jnp


class NoisyDense(nn.Module):
    features: int

    @nn.compact
    def __call__(self, x):
        w = self.param(
            "kernel",
            lambda rng, shape: jax.random.normal(jax.random.key(0), shape) * 0.1,  # error: JAX303
            (x.shape[-1], self.features),
        )
        return x @ w


# near misses


class KeyedDense(nn.Module):
    features: int

    @nn.compact
    def __call__(self, x):
        w = self.param("kernel", lambda rng, shape: jax.random.normal(rng, shape) * 0.1, (x.shape[-1], self.features))
        return x @ w


class FixedProjection(nn.Module):
    features: int

    @nn.compact
    def __call__(self, x):
        w = self.variable("consts", "proj", lambda: jax.random.normal(jax.random.key(0), (x.shape[-1], 4)))
        return x @ w.value


class Tower(nn.Module):
    layer: type

    @nn.compact
    def __call__(self, x):
        return self.layer(4)(nn.relu(self.layer(4)(x)))


def kernels(layer):
    variables = Tower(layer).init(jax.random.key(123), jnp.ones((1, 4)))
    params = variables["params"]
    return params[f"{layer.__name__}_0"]["kernel"], params[f"{layer.__name__}_1"]["kernel"]


def main():
    fixed = kernels(NoisyDense)
    keyed = kernels(KeyedDense)
    return bool(jnp.array_equal(*fixed)), bool(jnp.array_equal(*keyed))


if __name__ == "__main__":
    assert main() == (True, False)
    print("ok")
