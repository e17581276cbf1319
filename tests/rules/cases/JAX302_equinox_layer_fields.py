# An equinox module's field declared as a dropout layer (`drop: eqx.nn.Dropout`), called with
# the same key on every step of a Python loop: every step drops the same units (measured with
# equinox 0.13.8: identical masks at t=0 and t=3). A key split per step is fine.
import equinox as eqx
import jax
import jax.numpy as jnp


class DropoutRNN(eqx.Module):
    cell: eqx.nn.GRUCell
    drop: eqx.nn.Dropout

    def __call__(self, xs, key):
        h = jnp.zeros(self.cell.hidden_size)
        outs = []
        for t in range(xs.shape[0]):
            h = self.cell(xs[t], h)
            outs.append(self.drop(h, key=key))  # error: JAX302
        return jnp.stack(outs)


# near misses


class SplitDropoutRNN(eqx.Module):
    cell: eqx.nn.GRUCell
    drop: eqx.nn.Dropout

    def __call__(self, xs, key):
        h = jnp.zeros(self.cell.hidden_size)
        outs = []
        for t in range(xs.shape[0]):
            h = self.cell(xs[t], h)
            key, subkey = jax.random.split(key)
            outs.append(self.drop(h, key=subkey))
        return jnp.stack(outs)


def masks(cls):
    rnn = cls(eqx.nn.GRUCell(3, 8, key=jax.random.key(0)), eqx.nn.Dropout(0.5))
    outs = rnn(jnp.ones((4, 3)), jax.random.key(1))
    return outs != 0


def main():
    same, split = masks(DropoutRNN), masks(SplitDropoutRNN)
    return bool(jnp.array_equal(same[0], same[3])), bool(jnp.array_equal(split[0], split[3]))


if __name__ == "__main__":
    assert main() == (True, False)
    print("ok")
