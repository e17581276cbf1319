# SciPy's solvers and quadrature run on the host: they call the Python function they are given
# on NumPy values and convert what it returns. Under `jit` a function that returns a `jnp` result
# returns a tracer (from a traced value it closes over, or from constants: `jnp` is staged
# there), and the conversion raises (measured per function with JAX 0.10.2 and SciPy 1.17).
import jax
import jax.numpy as jnp
import numpy as np
from scipy import integrate, optimize


@jax.jit
def internal_rate(price, cashflows, times):
    def npv(r):
        return jnp.sum(cashflows * jnp.exp(-r * times)) - price

    return optimize.brentq(npv, -0.5, 1.0)  # error: JAX602


@jax.jit
def scaled_log_two(x):
    return x * optimize.brentq(f=lambda r: jnp.exp(r) - 2.0, a=0.0, b=1.0)  # error: JAX602


@jax.jit
def area(scale):
    return integrate.quad(lambda t: scale * jnp.sin(t), 0.0, 1.0)[0]  # error: JAX602


# near misses


@jax.jit
def host_only_function(x):
    return x * optimize.brentq(lambda r: np.exp(r) - 2.0, 0.0, 1.0)


def eager_rate(price, cashflows, times):
    def npv(r):
        return jnp.sum(cashflows * jnp.exp(-r * times)) - price

    return optimize.brentq(npv, -0.5, 1.0)


if __name__ == "__main__":
    cashflows, times = jnp.array([5.0, 5.0, 105.0]), jnp.array([1.0, 2.0, 3.0])
    hazards = (
        lambda: internal_rate(95.0, cashflows, times),
        lambda: scaled_log_two(1.0),
        lambda: area(2.0),
    )
    for hazard in hazards:
        try:
            hazard()
        except (jax.errors.TracerArrayConversionError, jax.errors.ConcretizationTypeError):
            pass
        else:
            raise AssertionError("expected a conversion error")
    assert abs(float(host_only_function(1.0)) - np.log(2.0)) < 1e-6
    assert 0.0 < eager_rate(95.0, cashflows, times) < 0.1
    print("ok")
