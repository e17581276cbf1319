"""Every way people write "this function is traced", with one hazard inside: the model must find
the function traced in each form, and stay silent in the forms where JAX does not trace it.

Each form is a module template with ``{body}``: the body of a function ``f(x)`` whose parameter
``x`` is traced when the form traces ``f`` (checked with JAX 0.10.2: each traced form raises).
"""

from __future__ import annotations

import textwrap

import pytest

from jaxlint.engine.linter import RuleSet, lint_source
from jaxlint.engine.registry import rule_codes

RULES = RuleSet.from_codes(rule_codes())

PRELUDE = "import functools\n\nimport jax\nimport jax.numpy as jnp\nfrom jax import lax\n\n\n"

TRACED_FORMS = {
    "decorator": "@jax.jit\ndef f(x):\n{body}\n",
    "call": "def f(x):\n{body}\n\n\ng = jax.jit(f)\n",
    "same name": "def f(x):\n{body}\n\n\nf = jax.jit(f)\n",
    "object stored by __init__": (
        "class Inner:\n    def __call__(self, x):\n{body_in_class}\n\n\nclass Outer:\n"
        "    def __init__(self):\n        self.inner = Inner()\n\n    def __call__(self, x):\n"
        "        return self.inner(x)\n\n\ng = jax.jit(Outer())\n"
    ),
    "same name under global": "def f(x):\n{body}\n\n\ndef setup():\n    global f\n    f = jax.jit(f)\n",
    "partial decorator": '@functools.partial(jax.jit, static_argnames=("n",))\ndef f(x, n=1):\n{body}\n',
    "lambda bound to a name": "f = lambda x: {expression}\ng = jax.jit(f)\n",
    "inline lambda": "g = jax.jit(\n    lambda x: {expression}\n)\n",
    "bound method": "class M:\n    def f(self, x):\n{body_in_class}\n\n\nobj = M()\ng = jax.jit(obj.f)\n",
    "self method": (
        "class M:\n    def __init__(self):\n        self.g = jax.jit(self.f)\n\n"
        "    def f(self, x):\n{body_in_class}\n"
    ),
    "factory closure": "def make(s):\n    def f(x):\n{body_in_class}\n    return f\n\n\ng = jax.jit(make(2.0))\n",
    "vmap": "def f(x):\n{body}\n\n\nbatched = jax.vmap(f)\n",
    "vmap in_axes": "def f(x, y):\n{body}\n\n\nbatched = jax.vmap(f, in_axes=(0, None))\n",
    "grad inside jit": "def f(x):\n{body}\n\n\n@jax.jit\ndef step(x):\n    return jax.grad(f)(x)\n",
    "wrapped then called": (
        "def f(x):\n{body}\n\n\ndf = jax.vmap(f)\n\n\n@jax.jit\ndef step(x):\n    return df(x)\n"
    ),
    "helper": "def f(x):\n{body}\n\n\n@jax.jit\ndef step(x):\n    return f(x)\n",
    "helper two deep": (
        "def f(x):\n{body}\n\n\ndef middle(x):\n    return f(x)\n\n\n@jax.jit\ndef step(x):\n    return middle(x)\n"
    ),
    "method of a module-level object": (
        "class M:\n    def f(self, x):\n{body_in_class}\n\n\nobj = M()\n\n\n"
        "@jax.jit\ndef step(x):\n    return obj.f(x)\n"
    ),
    "constructor": (
        "class M:\n    def __init__(self, x):\n{init_body}\n\n\n@jax.jit\ndef step(x):\n    return M(x)\n"
    ),
    "scan body": "def f(carry, x):\n{body}\n\n\ndef run(xs):\n    return lax.scan(f, 0.0, xs)\n",
    "fori body": "def run(n):\n    def f(i, x):\n{body_in_class}\n    return lax.fori_loop(0, n, f, 0.0)\n",
    "while body": "def run(v):\n    def f(x):\n{body_in_class}\n    return lax.while_loop(lambda c: c < 3, f, v)\n",
    "cond branch": "def run(p, v):\n    def f(x):\n{body_in_class}\n    return lax.cond(p, f, lambda x: x, v)\n",
    "checkpoint": "@jax.checkpoint\ndef f(x):\n{body}\n",
    "decorator bound to a partial": (
        'my_jit = functools.partial(jax.jit, static_argnames=("n",))\n\n\n@my_jit\ndef f(x, n=1):\n{body}\n'
    ),
    "vmap decorator bound to a partial": (
        "batched = functools.partial(jax.vmap, in_axes=0)\n\n\n@batched\ndef f(x):\n{body}\n"
    ),
    "decorator of the module that jits": "def compiled(fn):\n    return jax.jit(fn)\n\n\n@compiled\ndef f(x):\n{body}\n",
    "decorator of the module with a wrapper": (
        "def logged(fn):\n    jitted = jax.jit(fn)\n\n    @functools.wraps(fn)\n    def wrapper(*args):\n"
        "        return jitted(*args)\n\n    return wrapper\n\n\n@logged\ndef f(x):\n{body}\n"
    ),
    "helper that jits what it is handed": (
        "def compiled(fn):\n    return jax.jit(fn)\n\n\ndef f(x):\n{body}\n\n\ng = compiled(f)\n"
    ),
    "function stored on self, called in a jitted method": (
        "class M:\n    def __init__(self, fn):\n        self.fn = fn\n\n    def step(self, x):\n"
        "        return self.fn(x)\n\n\ndef f(x):\n{body}\n\n\nm = M(f)\ng = jax.jit(m.step)\n"
    ),
    "method inherited from a base": (
        "class Base:\n    def f(self, x):\n{body_in_class}\n\n\nclass M(Base):\n    def step(self, x):\n"
        "        return self.f(x)\n\n\ng = jax.jit(M().step)\n"
    ),
    "subclass method called by a base's __call__": (
        "class Base:\n    def __call__(self, x):\n        return self.f(x)\n\n\nclass M(Base):\n"
        "    def f(self, x):\n{body_in_class}\n\n\ng = jax.jit(M())\n"
    ),
    "function passed to a helper that calls it": (
        "def f(x):\n{body}\n\n\ndef call(fn, x):\n    return fn(x)\n\n\n"
        "@jax.jit\ndef step(x):\n    return call(f, x)\n"
    ),
    "function in a dict": (
        'def f(x):\n{body}\n\n\nTABLE = {{"f": f}}\n\n\n@jax.jit\ndef step(x):\n    return TABLE["f"](x)\n'
    ),
    "callable instance": "class M:\n    def __call__(self, x):\n{body_in_class}\n\n\ng = jax.jit(M())\n",
    "callable instance by name": (
        "class M:\n    def __call__(self, x):\n{body_in_class}\n\n\nobj = M()\ng = jax.jit(obj)\n"
    ),
    "inherited __call__ under vmap": (
        "class Base:\n    def __call__(self, x):\n{body_in_class}\n\n\nclass M(Base):\n    pass\n\n\n"
        "batched = jax.vmap(M())\n"
    ),
    "callable instance as scan body": (
        "class M:\n    def __call__(self, carry, x):\n{body_in_class}\n\n\n"
        "def run(xs):\n    return lax.scan(M(), 0.0, xs)\n"
    ),
    "flax module class lifted by nn.remat": (
        "import flax.linen as nn\n\n\nclass M(nn.Module):\n    def __call__(self, x):\n{body_in_class}\n\n\n"
        "M = nn.remat(M)\n"
    ),
    "flax module class lifted by nn.jit": (
        "import flax.linen as nn\n\n\nclass M(nn.Module):\n    def __call__(self, x):\n{body_in_class}\n\n\n"
        "Fast = nn.jit(M)\n"
    ),
    "jit imported under another name, applied in a function": (
        "from jax import jit as jjit\n\n\ndef f(x):\n{body}\n\n\ndef main(x):\n    return jjit(f)(x)\n"
    ),
    "vmap imported under another name inside the function": (
        "def f(x):\n{body}\n\n\ndef main(xs):\n    from jax import vmap as batch\n\n    return batch(f)(xs)\n"
    ),
    "switch branches in a list bound to a name": (
        "def f(x):\n{body}\n\n\ndef g(x):\n    return x\n\n\nBRANCHES = [f, g]\n\n\n"
        "def run(i, v):\n    return lax.switch(i, BRANCHES, v)\n"
    ),
    "scan body given an argument by partial": (
        "def f(scale, carry, x):\n{body}\n\n\ndef run(xs):\n    return lax.scan(functools.partial(f, 2.0), 0.0, xs)\n"
    ),
    "custom_vjp function called under jit with a static argument": (
        "@jax.custom_vjp\ndef f(x):\n{body}\n\n\nf.defvjp(lambda x: (f(x), None), lambda r, g: (g,))\n\n\n"
        '@functools.partial(jax.jit, static_argnames=("n",))\ndef step(n):\n    return f(n)\n'
    ),
    "jitted parameter with a default, passed by a call": (
        "@jax.jit\ndef f(y, x=1.0):\n{body}\n\n\ndef main(y):\n    return f(y, x=2.0)\n"
    ),
    "method jitted onto self, its default passed by the calls through the attribute": (
        "class M:\n    def __init__(self):\n        self.g = jax.jit(self.f)\n\n"
        "    def f(self, y, x=1.0):\n{body_in_class}\n\n    def run(self, y):\n        return self.g(y, 2.0)\n"
    ),
    "property read by a jitted function": (
        "class M:\n    @property\n    def f(self):\n        x = jnp.ones(()).sum()  # a tracer where staged\n"
        "{body_in_class}\n\n\n@jax.jit\ndef g(y):\n    return M().f + y\n"
    ),
    "function handed as a static argument to a jitted function that calls it": (
        "def f(x):\n{body}\n\n\ndef step(y, fn):\n    return fn(y)\n\n\n"
        "step = jax.jit(step, static_argnums=1)\n\n\ndef main(y):\n    return step(y, f)\n"
    ),
    "callable instance as fori body": (
        "class M:\n    def __call__(self, i, x):\n{body_in_class}\n\n\n"
        "def run(n):\n    step = M()\n    return lax.fori_loop(0, n, step, 0.0)\n"
    ),
}

UNTRACED_FORMS = {
    "plain function": "def f(x):\n{body}\n",
    "object stored by __init__, called eagerly": (
        "class Inner:\n    def __call__(self, x):\n{body_in_class}\n\n\nclass Outer:\n"
        "    def __init__(self):\n        self.inner = Inner()\n\n    def run(self, x):\n"
        "        return self.inner(x)\n\n\nOuter().run(1.0)\n"
    ),
    "rebound under global to something else": (
        "def f(x):\n{body}\n\n\ndef other(x):\n    return x\n\n\ndef setup():\n    global f\n"
        "    f = jax.jit(f)\n    f = other\n"
    ),
    "bare grad": "def f(x):\n{body}\n\n\ndf = jax.grad(f)\n",
    "called eagerly": "def f(x):\n{body}\n\n\ndef main():\n    return f(1.0)\n",
    "static argument": '@functools.partial(jax.jit, static_argnames=("x",))\ndef f(x):\n{body}\n',
    "switch branches in a list changed in place": (
        "def f(x):\n{body}\n\n\ndef g(x):\n    return x\n\n\nBRANCHES = [f, g]\nBRANCHES[0] = g\n\n\n"
        "def run(i, v):\n    return lax.switch(i, BRANCHES, v)\n"
    ),
    "jitted parameter with a default only ever passed None": (
        "@jax.jit\ndef f(y, x=None):\n{body}\n\n\ndef main(y):\n    return f(y, x=None)\n"
    ),
    "jitted parameter with a default no call passes": (
        "@jax.jit\ndef f(y, x=1.0):\n{body}\n\n\ndef main(y):\n    return f(y)\n"
    ),
    "method jitted onto self, its default passed by no call through the attribute": (
        "class M:\n    def __init__(self):\n        self.g = jax.jit(self.f)\n\n"
        "    def f(self, y, x=1.0):\n{body_in_class}\n\n    def run(self, y):\n        return self.g(y)\n"
    ),
    "method jitted onto self, the jitted attribute handed on": (
        "class M:\n    def __init__(self):\n        self.g = jax.jit(self.f)\n\n"
        "    def f(self, y, x=1.0):\n{body_in_class}\n\n    def get(self):\n        return self.g\n"
    ),
    "property read eagerly": (
        "class M:\n    @property\n    def f(self):\n        x = jnp.ones(()).sum()  # a tracer where staged\n"
        "{body_in_class}\n\n\ndef g(y):\n    return M().f + y\n"
    ),
    "custom_vjp function under a bare vmap": (
        "@jax.custom_vjp\ndef f(x):\n{body}\n\n\nf.defvjp(lambda x: (f(x), None), lambda r, g: (g,))\n\n\n"
        "def run(ys):\n    return jax.vmap(lambda y: f(2.0) + y)(ys)\n"
    ),
    "static through a decorator bound to a partial": (
        'my_jit = functools.partial(jax.jit, static_argnames=("x",))\n\n\n@my_jit\ndef f(x):\n{body}\n'
    ),
    "decorator that registers": (
        "REGISTRY = {{}}\n\n\ndef register(fn):\n    REGISTRY[fn.__name__] = fn\n    return fn\n\n\n"
        "@register\ndef f(x):\n{body}\n"
    ),
    "function stored on self, called eagerly": (
        "class M:\n    def __init__(self, fn):\n        self.fn = fn\n\n    def step(self, x):\n"
        "        return self.fn(x)\n\n\ndef f(x):\n{body}\n\n\nm = M(f)\ny = m.step(1.0)\n"
    ),
    "helper that jits only under a flag": (
        "def maybe_jit(fn, enable=False):\n    return jax.jit(fn) if enable else fn\n\n\n"
        "def f(x):\n{body}\n\n\ng = maybe_jit(f)\n"
    ),
    "function stored on self, another instance jitted": (
        "class M:\n    def __init__(self, fn):\n        self.fn = fn\n\n    def step(self, x):\n"
        "        return self.fn(x)\n\n\ndef f(x):\n{body}\n\n\ndef other(x):\n    return x\n\n\n"
        "eager = M(f)\njitted = jax.jit(M(other).step)\n"
    ),
    "callable dataclass instance (unhashable: jit raises TypeError first)": (
        "import dataclasses\n\n\n@dataclasses.dataclass\nclass M:\n    scale: float = 1.0\n\n"
        "    def __call__(self, x):\n{body_in_class}\n\n\ng = jax.jit(M())\n"
    ),
    "one of two subclass methods, the other one jitted": (
        "class Base:\n    def __call__(self, x):\n        return self.f(x)\n\n\nclass A(Base):\n"
        "    def f(self, x):\n{body_in_class}\n\n\nclass B(Base):\n    def f(self, x):\n        return x\n\n\n"
        "g = jax.jit(B())\n"
    ),
    "function passed to a helper called eagerly": (
        "def f(x):\n{body}\n\n\ndef call(fn, x):\n    return fn(x)\n\n\ndef main():\n    return call(f, 1.0)\n"
    ),
    "flax module class lifted by nn.remat, the argument static": (
        "import flax.linen as nn\n\n\nclass M(nn.Module):\n    def __call__(self, x):\n{body_in_class}\n\n\n"
        "M = nn.remat(M, static_argnums=(1,))\n"
    ),
    "callable instance under bare grad": (
        "class M:\n    def __call__(self, x):\n{body_in_class}\n\n\ndf = jax.grad(M())\n"
    ),
}

HAZARDS = {
    "JAX501": ("if x > 0:\n    return x\nreturn -x", "x if x > 0 else -x"),
    "JAX503": ("return int(x)", "int(x)"),
}


def source_of(form: str, code: str) -> tuple[str, int]:
    """The module for ``form`` with the hazard ``code`` in ``f`` (a body, or an expression for the
    lambda forms), and the line the hazard is on (marked ``# hazard``)."""
    body, expression = HAZARDS[code]
    first, _, rest = body.partition("\n")
    marked = f"{first}  # hazard" + (f"\n{rest}" if rest else "")
    source = PRELUDE + form.format(
        body=textwrap.indent(marked, "    "),
        body_in_class=textwrap.indent(marked, "        "),
        init_body=textwrap.indent(marked.replace("return", "self.v ="), "        "),
        expression=f"{expression}  # hazard",
    )
    row = next(i for i, line in enumerate(source.split("\n"), start=1) if line.endswith("# hazard"))
    return source, row


@pytest.mark.parametrize("code", sorted(HAZARDS))
@pytest.mark.parametrize("form", sorted(TRACED_FORMS))
def test_the_hazard_is_found_in_every_traced_form(form: str, code: str) -> None:
    source, row = source_of(TRACED_FORMS[form], code)
    found = {(d.location.row, d.code) for d in lint_source(source, "form.py", RULES)}
    assert (row, code) in found, f"{form}: expected {code} at line {row}, got {sorted(found)}\n{source}"


@pytest.mark.parametrize("code", sorted(HAZARDS))
@pytest.mark.parametrize("form", sorted(UNTRACED_FORMS))
def test_nothing_is_reported_where_jax_does_not_trace(form: str, code: str) -> None:
    source, _ = source_of(UNTRACED_FORMS[form], code)
    found = [d for d in lint_source(source, "form.py", RULES) if d.code == code]
    assert not found, f"{form}: {found}\n{source}"
