# A list held by an equinox module, appended to in a traced method. JAX rebuilds the module
# from its leaves for the trace: a static field (`eqx.field(static=True)`) is the same object in
# every copy, so the tracer lands in the module the caller holds; a data field is a new list in
# the copy, and the caller's list stays as it was (measured with JAX 0.10.2, equinox 0.13.8).
import equinox as eqx
import jax
import jax.numpy as jnp


class Probe(eqx.Module):
    w: jax.Array
    cache: list = eqx.field(static=True)

    def __call__(self, x):
        h = jnp.tanh(x @ self.w)
        self.cache.append(h)  # error: JAX104
        return h.sum()


class Recorder(eqx.Module):
    w: jax.Array
    seen: list

    def __init__(self, w):
        self.w = w
        self.seen = []

    def __call__(self, x):
        h = jnp.tanh(x @ self.w)
        self.seen.append(h)  # a data field: the copy's new list, dropped with the copy
        return h.sum()


class Labels(eqx.Module):
    w: jax.Array
    names: list = eqx.field(static=True)

    def __call__(self, x):
        self.names.append("called")  # a string: nothing traced is kept
        return x @ self.w


probe = Probe(jnp.ones((3, 2)), [])
recorder = Recorder(jnp.ones((3, 2)))
labels = Labels(jnp.ones((3, 2)), [])
probe_step = eqx.filter_jit(probe)
recorder_step = eqx.filter_jit(recorder)
labels_step = eqx.filter_jit(labels)


def main():
    x = jnp.ones(3)
    return probe_step(x), recorder_step(x), labels_step(x)


if __name__ == "__main__":
    named = globals()  # the functions by name: what the calls pass stays out of the analysis above
    named["main"]()
    assert len(probe.cache) == 1 and isinstance(probe.cache[0], jax.core.Tracer)
    try:
        probe.cache[0] + 1
    except jax.errors.UnexpectedTracerError:
        pass
    else:
        raise AssertionError("using the kept tracer did not raise UnexpectedTracerError")
    assert recorder.seen == []  # the copy's list took the append
    assert labels.names == ["called"]
    print("ok")
