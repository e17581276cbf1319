# A compiled function that writes into a global (`history[-1] = 1.0`) does not read it: the
# write is JAX104's (once per compilation), and a change of the global between calls reaches no
# compiled value (measured with JAX 0.10.2).
import jax
import numpy as np

history = np.zeros(3)
scale = np.ones(3)


def record(x):
    history[-1] = 1.0  # error: JAX104
    return x * 2


def scaled(x):
    return x * scale[-1]  # error: JAX103


record_fast = jax.jit(record)
scaled_fast = jax.jit(scaled)
first = record_fast(1.0), scaled_fast(1.0)
history[-1] = 0.0
scale[-1] = 3.0
second = record_fast(1.0), scaled_fast(1.0)


if __name__ == "__main__":
    assert float(first[0]) == float(second[0]) == 2.0
    assert float(second[1]) == 1.0  # stale: the new scale is not seen
    assert history[-1] == 0.0  # the compiled call did not write again
    print("ok")
