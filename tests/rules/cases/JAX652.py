# A linen submodule with a constant `name=` built in a loop raises `NameInUseError` on the second
# iteration (measured with flax 0.12.8). No name, a name per iteration, or one iteration is fine.
import flax.linen as nn
import jax
import jax.numpy as jnp


class Tower(nn.Module):
    depth: int = 3

    @nn.compact
    def __call__(self, x):
        for _ in range(self.depth):
            x = nn.Dense(8, name="proj")(x)  # error: JAX652
            x = nn.gelu(x)
        return x


class Block(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(8)(x)


class Stack(nn.Module):
    def setup(self):
        layers = []
        i = 0
        while i < 2:
            layers.append(Block(name="block"))  # error: JAX652
            i += 1
        self.layers = layers

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class Listed(nn.Module):
    def setup(self):
        self.layers = [nn.Dense(4, name="d") for _ in range(3)]  # error: JAX652

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


# near misses


class Numbered(nn.Module):
    @nn.compact
    def __call__(self, x):
        for i in range(3):
            x = nn.Dense(8, name=f"proj_{i}")(x)
        for _ in range(2):
            x = nn.Dense(8)(x)
        for _ in range(1):
            x = nn.Dense(8, name="last")(x)
        x = [nn.Dense(8, name="only")(x) for _ in range(1)][0]
        return x


def plain_loop(configs):
    return [dict(name="proj", size=c) for c in configs]


if __name__ == "__main__":
    x = jnp.ones((2, 8))
    for module in (Tower(), Stack(), Listed()):
        try:
            module.init(jax.random.key(0), x)
        except Exception as error:  # flax.errors.NameInUseError
            assert "Name in use" in str(error) or "already" in str(error), error
        else:
            raise AssertionError("expected NameInUseError")
    print(list(Numbered().init(jax.random.key(0), x)["params"]), plain_loop([1]))
    print("ok")
