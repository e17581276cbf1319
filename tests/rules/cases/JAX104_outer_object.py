# A method that traced code calls on an object made before the trace runs while JAX traces:
# `self.n += 1` there counts traces, not calls or steps (measured with JAX 0.10.2: a progress
# counter updated in a 100-step scan body reads 1). Counters of traces, and objects made
# inside the trace, are left alone.
import jax
from jax import lax


class Progress:
    def __init__(self):
        self.n = 0
        self.traces = 0

    def update(self, k=1):
        self.n += k  # error: JAX104

    def saw_trace(self):
        self.traces += 1


bar = Progress()


def step(x, _):
    bar.update(1)
    bar.saw_trace()
    return 0.9 * x, x


def run(x):
    return jax.jit(lambda x: lax.scan(step, x, None, length=100))(x)


# near misses


class Local:
    def __init__(self):
        self.count = 0

    def bump(self):
        self.count += 1


@jax.jit
def fresh(x):
    local = Local()
    local.bump()
    return x * local.count


if __name__ == "__main__":
    run(1.0)
    assert bar.n == 1 and bar.traces == 1  # once per trace, not 100
    print(fresh(2.0))
    print("ok")
