# `jax.jit(self._factor)` in a method makes a new function object, and a new compilation, on
# every call of the method (measured with JAX 0.10.2: three calls, three traces). A method the
# file calls once, at module level, compiles once: nothing is repeated.
import jax
import jax.numpy as jnp


class GaussianProcess:
    def __init__(self, noise):
        self.noise = noise

    def _factor(self, x):
        return jnp.linalg.cholesky(jnp.eye(x.shape[0]) * (1.0 + self.noise) + 0.0 * x[:, None])

    def fit(self, x):
        return jax.jit(self._factor)(x)  # called once below


class Smoother:
    def _smooth(self, x):
        return jnp.convolve(x, jnp.ones(3) / 3.0, mode="same")

    def step(self, x):
        return jax.jit(self._smooth)(x)  # error: JAX601 (called in a loop below)


class Regressor:
    def _forward(self, x):
        return x * 2.0

    def predict(self, x):
        return jax.jit(self._forward)(x)  # error: JAX601 (in a loop inside a `with` below)


chol = GaussianProcess(0.1).fit(jnp.linspace(0.0, 1.0, 5))
with jax.log_compiles(False):
    for _ in range(3):
        Regressor().predict(jnp.ones(2))
smoother = Smoother()
signal = jnp.ones(8)
for _ in range(3):
    signal = smoother.step(signal)
assert chol.shape == (5, 5) and signal.shape == (8,)


if __name__ == "__main__":
    traces = []

    class CountedSmoother(Smoother):
        def _smooth(self, x):
            traces.append("smooth")
            return super()._smooth(x)

    class CountedRegressor(Regressor):
        def _forward(self, x):
            traces.append("forward")
            return super()._forward(x)

    counted = CountedSmoother()
    for _ in range(3):
        counted.step(jnp.ones(8))
    for _ in range(3):
        CountedRegressor().predict(jnp.ones(2))
    assert traces == ["smooth"] * 3 + ["forward"] * 3, traces  # a trace per call
    assert jnp.allclose(chol @ chol.T, 1.1 * jnp.eye(5))
    print("ok")
