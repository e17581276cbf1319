# fix: unsafe
import flax.linen as nn


class DeepMLP(nn.Module):
    def setup(self):
        self.layers = [nn.Dense(4) for _ in range(3)]

    def __call__(self, x):
        for layer in self.layers:
            x = nn.tanh(layer(x))
        return x


class Stacked(nn.Module):
    depth: int = 2

    @nn.compact
    def __call__(self, x):
        for block in [nn.Dense(4, use_bias=False) for _ in range(self.depth)]:
            x = block(x)
        return x
