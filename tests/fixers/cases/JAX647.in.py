# fix: unsafe
import flax.linen as nn


class DeepMLP(nn.Module):
    def setup(self):
        self.layers = [nn.Dense(4)] * 3

    def __call__(self, x):
        for layer in self.layers:
            x = nn.tanh(layer(x))
        return x


class Stacked(nn.Module):
    depth: int = 2

    @nn.compact
    def __call__(self, x):
        for block in self.depth * [nn.Dense(4, use_bias=False)]:
            x = block(x)
        return x
