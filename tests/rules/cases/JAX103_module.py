# Module code that rebinds a global between two calls of a jitted function that reads it, or in
# a loop that calls it, leaves the compiled program with the old value. A rebinding no later
# call sees, configuration set before anything runs, a cleared cache, or a new function object
# jitted at each call (retraced every time) read the new value.
import jax
import jax.numpy as jnp

params = jnp.ones(3)
scale = 0.5
offset = 1.0
bias = 0.0
HIDDEN = 1.0
softcap = 30.0
target = 0.0
shift = 0.0


@jax.jit
def predict(x):
    return x @ params  # error: JAX103


@jax.jit
def scaled(x):
    return x * scale  # error: JAX103


@jax.jit
def shifted(x):
    return x + offset


@jax.jit
def biased(x):
    return x + bias


@jax.jit
def hidden(x):
    return x * HIDDEN


@jax.jit
def capped(x):
    return softcap * jnp.tanh(x / softcap)


def set_softcap(value):
    global softcap
    softcap = value
    capped.clear_cache()


def loss(w):
    return jnp.sum((w - target) ** 2)


def moved(w):
    return w - shift  # error: JAX103


def main(argv=None):
    global HIDDEN
    HIDDEN = 0.5 if argv is None else float(argv[0])
    return hidden(jnp.ones(3))


x = jnp.ones(3)
main()  # sets HIDDEN before anything else runs
for step in range(3):
    print(predict(x))
    params = params - 0.1

out = scaled(x)
scale = 0.0
out_again = scaled(x)

shifted(x)
offset = 2.0  # no later call sees it

for step in range(3):
    bias = bias + 1.0  # no call in the loop: `biased` is traced once, after it
print(biased(x))

set_softcap(5.0)
print(capped(x))

for target in (0.0, 1.0, 2.0):
    print(jax.jit(jax.grad(loss))(x))  # a new function object each time: traced again

for shift in (0.0, 1.0):
    print(jax.jit(moved)(x))  # the same function: JAX finds its program cached

CONFIG = {"lr": 0.1}


@jax.jit
def update(w):
    return jax.tree_util.tree_map(lambda p: p - CONFIG["lr"] * p, w)  # error: JAX103


for epoch in range(3):
    if epoch == 1:
        CONFIG["lr"] = 0.0  # the compiled `update` keeps 0.1
    print(update({"w": x}))


noise = 1.0


@jax.jit
def corrupt(batch):
    return batch * noise


for batch_size in (8, 16, 32):
    noise = batch_size / 8  # each call has a new shape: traced again, it reads the new value
    print(corrupt(jnp.ones((batch_size, 2))))

print(corrupt(jnp.ones(3)))
noise = 5.0
print(corrupt(jnp.ones(4)))  # another shape: traced again


class Model:
    def apply(self, v):
        return v * noise


model = Model()
print(jax.jit(model.apply)(x))
noise = 6.0
print(jax.jit(model.apply)(x))  # a new bound method each time: traced again

SETTINGS = {"lr": 0.1, "log_every": 10}


@jax.jit
def settled(w):
    return w * SETTINGS["lr"]


settled(x)
SETTINGS["log_every"] = 100  # a key `settled` never reads
settled(x)

WIDTH = 1.0


@jax.jit
def widened(v):
    return v * WIDTH


widened(x)
WIDTH = 2.0
widened.clear_cache()  # module code clears the cache: the next call traces again
widened(x)


class Settings:
    lr = 0.1
    run_name = "a"


opts = Settings()


@jax.jit
def stepped(w):
    return w * opts.lr  # error: JAX103


stepped(x)
opts.run_name = "b"  # an attribute `stepped` never reads
stepped(x)
opts.lr = 0.0  # the one it reads: the compiled `stepped` keeps 0.1
stepped(x)

OPTIM = {"lr": 0.1, "name": "sgd"}


def set_lr(value):
    OPTIM["lr"] = value


def rename(value):
    OPTIM["name"] = value


@jax.jit
def optimized(w):
    return w * OPTIM["lr"]  # error: JAX103


optimized(x)
rename("adam")  # stores a key `optimized` never reads
optimized(x)
set_lr(0.0)  # the compiled `optimized` keeps 0.1
optimized(x)

double = lambda v: v * 2  # noqa: E731  (a lambda called from module code stores nothing)
optimized(double(x))

LR = 0.1
DECAY = 0.1
MOMENTUM = 0.9
DAMPING = 0.5


@jax.jit
def sgd(w):
    return w - LR * w  # error: JAX103


w = x
for lr in (0.1, 0.01):
    LR = lr
    w = sgd(w)  # fed back its own result: the same shapes, no new trace


@jax.jit
def decayed(w):
    return w * (1.0 - DECAY)  # error: JAX103


def train_epoch(w):
    for _ in range(3):
        w = decayed(w)
    return w


def run_epochs(w):
    return train_epoch(w)  # runs `decayed` through `train_epoch`


w = x
w = run_epochs(w)
DECAY = 0.5  # the next epoch still decays by 0.1
w = run_epochs(w)


@jax.jit
def momentum(w):
    return w * MOMENTUM


def evaluate(w):
    return jnp.sum(w)  # never runs `momentum`


w = momentum(x)
for m in (0.9, 0.99):
    MOMENTUM = m
    print(evaluate(w))


@jax.jit
def damped(w):
    return w * DAMPING


def grow(w):
    return jnp.concatenate([w, w])  # not the jitted function: a new shape each time


for d in (0.5, 0.25):
    DAMPING = d
    x = grow(x)
    print(damped(x))  # a new shape: traced again, it reads the new value

OPTIONS = {"lr": 0.1, "log_every": 10}
HISTORY = [1.0]
SCALES = dict(scale=1.0, name="a")


@jax.jit
def optioned(w):
    return w - OPTIONS["lr"] * w  # error: JAX103


@jax.jit
def smoothed(w):
    return w * len(HISTORY)  # error: JAX103


@jax.jit
def rescaled(w):
    return w * SCALES.get("scale", 1.0)  # error: JAX103


print(optioned(x))
OPTIONS.update({"lr": 0.0})  # the compiled `optioned` keeps 0.1
print(optioned(x))
print(smoothed(x))
HISTORY.append(2.0)  # the compiled `smoothed` keeps the length 1
print(smoothed(x))
print(rescaled(x))
SCALES.update(name="b")  # a key `rescaled` never reads
print(rescaled(x))
SCALES.update(scale=3.0)
print(rescaled(x))

weights = jnp.ones(3)


@jax.jit
def predict_with(v):
    return v @ weights  # error: JAX103


@jax.jit
def improve(w):
    return w * 0.5


print(predict_with(x))
for _ in range(3):
    weights = improve(weights)  # trained in a loop that never calls `predict_with`
print(predict_with(x))  # the compiled `predict_with` still holds the first weights
