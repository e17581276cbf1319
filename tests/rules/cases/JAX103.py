import jax

scale = 1.0
offset = 0.0
EPS = 1e-6
TABLE = (1.0, 2.0)
registry = {}


def set_scale(value):
    global scale
    scale = value


def register(name, fn):
    registry[name] = fn


@jax.jit
def apply_scale(x):
    y = x * scale  # error: JAX103
    return y * scale + EPS + TABLE[0] + offset  # error: JAX103


for offset in (1.0, 2.0):
    print(apply_scale(1.0))


@jax.jit
def uses_offset(x):
    return x + offset  # error: JAX103


def make_stepper(lr):
    @jax.jit
    def step(w, g):
        return w - lr * g  # returned after the last rebinding: every trace sees it

    for _ in range(3):
        lr = lr * 0.5
    return step


# --- near misses ---


@jax.jit
def reads_constants(x):
    return x * EPS + TABLE[1]


@jax.jit
def reads_registry(x):
    return registry["f"](x)


def make_once(factor):
    @jax.jit
    def mul(x):
        return x * factor

    return mul


def make_late():
    @jax.jit
    def f(x):
        return x * late

    late = 2.0
    return f


def lax_body_closure(xs, total):
    def body(carry, x):
        return carry + x * total, None

    out, _ = jax.lax.scan(body, 0.0, xs)
    total = out
    return total


def grad_only(w):
    return w * scale


g = jax.grad(grad_only)


gain = 2.0


def set_gain(value):
    global gain
    gain = value


def row_in_jit(x):
    return x * gain  # error: JAX103 (lax.map inside jit: traced once, compiled)


def row_eager(x):
    return x * gain  # ok: an eager lax.map traces its body again on every call


def scan_row_eager(carry, x):
    return carry, x * gain  # error: JAX103 (an eager scan caches the trace of the same body)


@jax.jit
def mapped_in_jit(xs):
    return jax.lax.map(row_in_jit, xs)


def mapped_eagerly(xs):
    return jax.lax.map(row_eager, xs), jax.lax.scan(scan_row_eager, 0.0, xs)


if __name__ == "__main__":
    fns = globals()  # the module's names: what the block changes stays out of the analysis above
    # lines 21-22: compiled with scale 1.0 and offset 1.0 (the loop above printed the same twice)
    assert abs(float(fns["apply_scale"](1.0)) - 3.000001) < 1e-5
    fns["set_scale"](3.0)
    assert abs(float(fns["apply_scale"](1.0)) - 3.000001) < 1e-5  # not 1 * 3 * 3 + ...: the old scale
    assert abs(float(fns["g"](1.0)) - 3.0) < 1e-5  # a bare grad reads the new scale
    # line 31
    assert abs(float(fns["uses_offset"](0.0)) - 2.0) < 1e-5
    fns["offset"] = 5.0
    assert abs(float(fns["uses_offset"](0.0)) - 2.0) < 1e-5  # the old offset
    # lines 99 and 107
    xs = fns["jax"].numpy.ones(2)
    assert fns["mapped_in_jit"](xs).tolist() == [2.0, 2.0]
    mapped, (_, scanned) = fns["mapped_eagerly"](xs)
    assert mapped.tolist() == [2.0, 2.0] and scanned.tolist() == [2.0, 2.0]
    fns["set_gain"](3.0)
    assert fns["mapped_in_jit"](xs).tolist() == [2.0, 2.0]  # the old gain
    mapped, (_, scanned) = fns["mapped_eagerly"](xs)
    assert mapped.tolist() == [3.0, 3.0]  # an eager lax.map traces again
    assert scanned.tolist() == [2.0, 2.0]  # an eager scan reuses its trace: the old gain
    # near misses
    assert abs(float(fns["reads_constants"](1.0)) - 2.000001) < 1e-5
    fns["register"]("f", lambda x: x * 4.0)
    assert abs(float(fns["reads_registry"](1.0)) - 4.0) < 1e-5
    assert abs(float(fns["make_once"](3.0)(1.0)) - 3.0) < 1e-5
    assert abs(float(fns["make_late"]()(1.0)) - 2.0) < 1e-5
    assert abs(float(fns["lax_body_closure"](xs, 2.0)) - 4.0) < 1e-5
    print("ok")
