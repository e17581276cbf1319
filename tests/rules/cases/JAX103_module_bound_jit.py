# A method jitted bound to a module-level object (`probs = jax.jit(sampler.probs)`) traces with
# that object as a constant: an attribute changed between two calls is never seen (measured with
# JAX 0.10.2). Eager calls of the method, or a new jit after the change, read the new value.
import jax
import jax.numpy as jnp


class Sampler:
    def __init__(self, temperature):
        self.temperature = temperature

    def probs(self, logits):
        return jax.nn.softmax(logits / self.temperature)  # error: JAX103


class Scorer:
    def __init__(self, scale):
        self.scale = scale

    def score(self, logits):
        return logits * self.scale


sampler = Sampler(1.0)
probs = jax.jit(sampler.probs)
scorer = Scorer(1.0)
score = jax.jit(scorer.score)
logits = jnp.array([1.0, 2.0, 3.0])
p_warm = probs(logits)
eager_before = scorer.score(logits)
sampler.temperature = 0.1
scorer.scale = 2.0
p_cold = probs(logits)
eager_after = scorer.score(logits)

if __name__ == "__main__":
    assert jnp.allclose(p_warm, p_cold)  # the new temperature is never seen
    assert jnp.allclose(eager_after, 2.0 * eager_before)  # eager calls read it
    print(p_cold, score(logits))
