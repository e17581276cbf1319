# A closure variable rebound in the enclosing function after a jitted inner function may have
# been traced: later calls keep the value of the first trace (measured with JAX 0.10.2). Rebound
# before the function is first run (a factory that returns it afterwards), every trace sees the
# last value.
import jax


def anneal(w, g):
    lr = 1.0

    @jax.jit
    def step(w, g):
        return w - lr * g  # error: JAX103

    for _ in range(3):
        w = step(w, g)
        lr = lr * 0.5
    return w


# near misses


def make_stepper(lr):
    @jax.jit
    def step(w, g):
        return w - lr * g

    for _ in range(3):
        lr = lr * 0.5
    return step


def counted(lr):
    calls = 0

    @jax.jit
    def step(w):
        return w * lr

    calls += 1  # not read by `step`
    return step, calls


SCALE = 2.0


def scaled_stepper():
    @jax.jit
    def step(w):
        return w * SCALE

    return step


if __name__ == "__main__":
    assert float(anneal(1.0, 1.0)) == -2.0  # stale: lr stays 1.0 (fresh values would give 0.125)
    assert float(make_stepper(1.0)(1.0, 1.0)) == 0.875
    assert float(counted(3.0)[0](1.0)) == 3.0
    assert float(scaled_stepper()(1.0)) == 2.0
    print("ok")
