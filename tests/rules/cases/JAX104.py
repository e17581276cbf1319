import functools

import jax
import jax.numpy as jnp

num_updates = 0
loss_history = []
cache = {}


@jax.jit
def sgd_update(params, grads):
    global num_updates
    num_updates += 1  # error: JAX104
    loss_history.append(grads.sum())  # error: JAX104
    cache["last"] = grads  # error: JAX104
    return params - 0.1 * grads


def counter():
    calls = 0

    @jax.jit
    def f(x):
        nonlocal calls
        calls = calls + 1  # error: JAX104
        return x

    return f


class Model:
    @jax.jit  # error: JAX610 (and a TypeError on the call: self is no JAX type)
    def __call__(self, x):
        self.last = x * 2  # error: JAX104
        return x


def outer(xs):
    seen = []

    def body(carry, x):
        seen.append(x)  # error: JAX104
        return carry + x, None

    return jax.lax.scan(body, 0.0, xs), seen


class Recorder:
    def __init__(self):
        self.last = None
        self.calls = 0

    def apply(self, x):
        self.last = x  # error: JAX104
        self.calls += 1  # error: JAX104
        return x * 2.0


recorder = Recorder()


class Closing:
    def __init__(self):
        self.last = None

    def apply(self, x):
        def inner():
            self.last = x  # error: JAX104
            return x * 2.0

        return inner()


closing_step = jax.jit(Closing().apply)


@jax.jit
def records_on_a_module_object(x):
    return recorder.apply(x)


# --- near misses ---


@jax.jit
def local_state(x):
    history = []
    history.append(x)
    metrics = {}

    def log(name, value):
        metrics[name] = value

    log("x", x)
    return jnp.stack(history), metrics


def eager(x):
    loss_history.append(x)
    return x


class Optimizer:
    def update(self, grads):
        return grads


opt = Optimizer()


@jax.jit
def pure_update(grads):
    return opt.update(grads)


class Config:
    def __init__(self, n):
        self.n = n

    @jax.jit  # error: JAX610
    def scaled(self, x):
        self.cached_n = 3
        return x * 2


class Pipeline:
    """Built inside traced code: its fields may hold tracers, nothing outlives the trace."""

    def __init__(self, step):
        self.step = step
        self.first = step == 0

    def advance(self, x):
        self.last = x + 1
        return self.last


@jax.jit
def run_pipeline(step, x):
    pipeline = Pipeline(step)
    return pipeline.advance(x) + pipeline.first


class Tracker:
    def update(self, x):
        self.value = x * 2  # error: JAX104
        return x


tracker = Tracker()
jitted_update = jax.jit(tracker.update)


last_input = None
inputs_seen = []


def loss_keeping_its_input(x):
    global last_input
    last_input = x  # error: JAX104
    inputs_seen.append(x)  # error: JAX104
    return x**2


grad_of_loss = jax.grad(loss_keeping_its_input)  # a bare grad: x is a JVP tracer, which leaks


calls = 0


last_detached = None


def loss_keeping_a_detached_copy(x):
    global last_detached
    last_detached = jax.lax.stop_gradient(x)  # under a bare grad: the concrete primal value
    return x**2


grad_detached = jax.grad(loss_keeping_a_detached_copy)


def loss_counting_calls(x):
    global calls
    calls = calls + 1  # not reported: a bare grad traces on every call, so this counts calls
    return x**2


grad_counting = jax.grad(loss_counting_calls)


class Counter:
    """The counter of JAX's stateful-computations guide."""

    def __init__(self):
        self.n = 0

    def count(self):
        self.n += 1  # error: JAX104 (jax.jit(counter.count) counts traces, not calls)
        return self.n

    def reset(self):
        self.n = 0


counter = Counter()
fast_count = jax.jit(counter.count)


class StaticSelf:
    def __init__(self):
        self.calls = 0

    @functools.partial(jax.jit, static_argnums=0)
    def step(self, x):
        self.calls += 1  # error: JAX104 (a static self: once per trace)
        return x * 2

    def eager_step(self, x):
        self.calls += 1  # ok: not traced
        return x * 2


@jax.tree_util.register_pytree_node_class
class Particles:
    def __init__(self, x):
        self.x = x

    def tree_flatten(self):
        return (self.x,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

    @jax.jit
    def move(self, dx):
        self.x = self.x + dx  # error: JAX104 (the trace's copy: the caller's object keeps its x)
        return self

    @jax.jit
    def moved(self, dx):
        return Particles(self.x + dx)  # ok: returns the updated object


class Registered:
    def __init__(self, x):
        self.x = x

    @functools.partial(jax.jit, static_argnums=0)
    def static_self(self, v):
        return self.x + v

    @jax.jit
    def reset(self, i):
        self.x = self.x.at[i].set(0.0)  # error: JAX104 (jax#15817)


jax.tree_util.register_pytree_node(Registered, lambda r: ((r.x,), None), lambda _, c: Registered(*c))


class Scratch:
    def __init__(self):
        self.last = None
        self.calls = 0

    def apply(self, x):
        self.last = x  # an object made inside the trace: it dies with it
        self.calls += 1
        return x * 2.0


@jax.jit
def records_on_objects_made_in_the_trace(x):
    local = Scratch()
    return local.apply(x) + Scratch().apply(x)


class Stats:
    def __init__(self):
        self.last = None

    def record(self, value):
        self.last = value  # error: JAX104 (through `MODEL.step`: `self.stats` is MODEL's, made before the trace)
        return value


class Scorer:
    def __init__(self):
        self.last = None

    def record(self, value):
        self.last = value  # ok: every object it is called on is made inside the trace
        return value


class Network:
    def __init__(self):
        self.stats = Stats()

    def step(self, x):
        y = x * 2.0
        self.stats.record(y)
        return y


MODEL = Network()


@jax.jit
def trains_a_module_level_network(x):
    return MODEL.step(x)


@jax.jit
def trains_a_network_made_in_the_trace(x):
    net = Network()
    return Scorer().record(net.step(x))


class Meter:
    def __init__(self):
        self.seen = None

    def update(self, value):
        self.seen = value  # error: JAX104 (`HOLDER.meter`: what `__init__` stored in a module-level object)
        return value


class Holder:
    def __init__(self):
        self.meter = Meter()


HOLDER = Holder()


@jax.jit
def updates_a_held_meter(x):
    HOLDER.meter.update(x)
    return x + 1.0


class Gauge:
    def __init__(self):
        self.last = None

    def record(self, value):
        self.last = value  # ok: the object made before the trace only gets a Python float
        return value


class Probe:
    def __init__(self):
        self.gauge = Gauge()

    def step(self, x):
        self.gauge.record(x * 2.0)
        return x


PROBE = Probe()


@jax.jit
def probes_a_fresh_object(x):
    return Probe().step(x)


@jax.jit
def records_a_constant_on_the_module_object(x):
    PROBE.gauge.record(3.0)
    return x
