"""JAX628: a flax linen module applied in a mode that draws random numbers, with no ``rngs``."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic import measured
from jaxlint.semantic.scopes import Scope

from ..support.explain import snippet
from ..support.linen import field_defaults, method_named, module_class

UNKNOWN = object()  # a value the module's own code does not decide
DEPTH = 3  # submodules followed into, and names followed to their single binding
DRAWING_LAYERS = {"flax.linen.Dropout": "dropout"}  # a layer and the rng stream it draws from


class LinenDropoutWithoutRng(Rule):
    """## What it does
    Finds `module.apply(variables, ...)` without `rngs=` on a flax linen module of this file
    whose `__call__`, run with the arguments given, draws random numbers: an `nn.Dropout`
    with a rate above zero that the arguments make non-deterministic (`train=True` where the
    layer gets `deterministic=not train`), or `self.make_rng(...)`, in the module or in a
    submodule it calls. Only code that always runs counts (not under an `if` or in a loop),
    and only flags the arguments decide.

    ## Why is this bad?
    `apply` has no random keys unless it is given some: flax raises `InvalidRngError`
    ("Dropout_0 needs PRNG for "dropout""). Pass a fresh key for each step,
    `rngs={"dropout": key}`. (`init` falls back on its `params` key and works.)

    ## Example
    ```python
    import flax.linen as nn
    import jax
    import jax.numpy as jnp

    class Classifier(nn.Module):
        @nn.compact
        def __call__(self, x, train: bool = False):
            x = nn.Dense(4)(x)
            return nn.Dropout(0.1)(x, deterministic=not train)

    model = Classifier()
    x = jnp.ones((2, 3))
    variables = model.init(jax.random.key(0), x)
    y = model.apply(variables, x, train=True)
    ```

    ## Use instead
    ```python
    import flax.linen as nn
    import jax
    import jax.numpy as jnp

    class Classifier(nn.Module):
        @nn.compact
        def __call__(self, x, train: bool = False):
            x = nn.Dense(4)(x)
            return nn.Dropout(0.1)(x, deterministic=not train)

    model = Classifier()
    x = jnp.ones((2, 3))
    variables = model.init(jax.random.key(0), x)
    y = model.apply(variables, x, train=True, rngs={"dropout": jax.random.key(1)})
    ```

    ## Fix safety
    No automatic fix: the key must be a fresh one on every step, which only the caller has.

    ## References
    - [flax linen: Dropout](https://flax-linen.readthedocs.io/en/latest/api_reference/flax.linen/layers.html#flax.linen.Dropout)
    - [flax: randomness and PRNGs](https://flax-linen.readthedocs.io/en/latest/guides/flax_fundamentals/rng_guide.html)
    """

    code = "JAX628"
    name = "linen-dropout-without-rng"
    message = "A flax linen module that draws random numbers is applied without `rngs`"
    outcome = 'flax.errors.InvalidRngError: Dropout_0 needs PRNG for "dropout"'
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        func = node.func
        if not isinstance(func, ast.Attribute) or func.attr != "apply" or not node.args:
            return
        if any(k.arg in ("rngs", "method", None) for k in node.keywords):
            return  # keys given (or maybe, unpacked), or another method runs
        if not (ctx.mentions("Dropout") or ctx.mentions("make_rng")):
            return
        found = _construction(ctx, func.value, ctx.scope)
        if found is None or any(isinstance(a, ast.Starred) for a in node.args):
            return
        construction, scope = found
        cls = module_class(ctx, construction, scope)
        if cls is None:
            return
        caller = Frame(ctx, ctx.scope)
        module = Frame.of_module(ctx, cls, construction, scope, caller)
        draw = module and module.draw_in_call(cls, node.args[1:], node.keywords, caller)
        if draw is None:
            return
        site, stream = draw
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` gives no `rngs`, but with these arguments `{cls.name}` draws "
            f"from the `{stream}` stream (`{snippet(ctx, site)}`, line {site.lineno}): flax raises "
            f'`InvalidRngError` (`needs PRNG for "{stream}"`); pass `rngs={{"{stream}": key}}`, '
            f"a fresh key each step",
        )


@dataclass
class Frame:
    """What the module's code can see while it runs: its parameters' and fields' values, where
    the code knows them (else ``UNKNOWN``), and the scope its names resolve in."""

    ctx: Context
    scope: Scope
    params: dict[str, object] = field(default_factory=dict)
    fields: dict[str, object] = field(default_factory=dict)
    this: str | None = None
    cls: ast.ClassDef | None = None
    depth: int = 0

    @classmethod
    def of_module(
        cls, ctx: Context, module: ast.ClassDef, construction: ast.Call, scope: Scope, caller: Frame
    ) -> Frame | None:
        """The frame of a module object built by ``construction``: its fields' values."""
        if caller.depth >= DEPTH:
            return None
        given = {k.arg: k.value for k in construction.keywords if k.arg is not None}
        unpacked = construction.args or any(k.arg is None for k in construction.keywords)
        fields: dict[str, object] = {}
        for name, default in field_defaults(module).items():
            if name in given:
                fields[name] = caller.evaluate(given[name])
            elif unpacked or default is None:
                fields[name] = UNKNOWN
            else:
                fields[name] = Frame(ctx, ctx.model.index.module).evaluate(default)
        return Frame(ctx, scope, fields=fields, cls=module, depth=caller.depth + 1)

    def evaluate(self, expr: ast.expr, depth: int = 0) -> object:
        """The value of a flag or a rate: a literal, a parameter, a field, ``not``, ``and``/``or``."""
        if isinstance(expr, ast.Constant):
            return expr.value
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
            value = self.evaluate(expr.operand, depth)
            return UNKNOWN if value is UNKNOWN else not value
        if isinstance(expr, ast.BoolOp):
            values = [self.evaluate(v, depth) for v in expr.values]
            if any(v is UNKNOWN for v in values):
                return UNKNOWN
            return all(values) if isinstance(expr.op, ast.And) else any(values)
        if (
            isinstance(expr, ast.Attribute)
            and isinstance(expr.value, ast.Name)
            and expr.value.id == self.this
        ):
            return self.fields.get(expr.attr, UNKNOWN)
        if isinstance(expr, ast.Name):
            if expr.id in self.params:
                return self.params[expr.id]
            owner = self.scope.lookup(expr.id)
            value = None if owner is None or depth >= DEPTH else owner.single_value(expr.id)
            if value is None or owner is None:
                return UNKNOWN
            frame = self if owner is self.scope else Frame(self.ctx, owner)  # a local sees the parameters
            return frame.evaluate(value, depth + 1)
        return UNKNOWN

    def draw_in_call(
        self, module: ast.ClassDef, args: list[ast.expr], keywords: list[ast.keyword], caller: Frame
    ) -> tuple[ast.Call, str] | None:
        """The first random draw ``module.__call__`` always makes when called with these
        arguments (evaluated in ``caller``), and its stream."""
        method = method_named(module, "__call__")
        if method is None or method.args.vararg or method.args.kwarg:
            return None
        names = [a.arg for a in [*method.args.posonlyargs, *method.args.args]]
        if not names or len(args) > len(names) - 1:
            return None
        self.this = names[0]
        self.scope = self.ctx.model.index.scopes.get(method, self.scope)
        given = dict(zip(names[1:], args))
        given |= {k.arg: k.value for k in keywords if k.arg is not None}
        defaults = dict(zip(reversed(names), reversed(method.args.defaults)))
        defaults |= {
            a.arg: d for a, d in zip(method.args.kwonlyargs, method.args.kw_defaults) if d is not None
        }
        for name in names[1:] + [a.arg for a in method.args.kwonlyargs]:
            if name in given:
                self.params[name] = caller.evaluate(given[name])
            elif name in defaults:
                self.params[name] = self.evaluate(defaults[name])
            else:
                self.params[name] = UNKNOWN
        for call in _always_run_calls(method.body):
            found = self.draw(call)
            if found is not None:
                return found
        return None

    def draw(self, call: ast.Call) -> tuple[ast.Call, str] | None:
        """Whether ``call`` draws random numbers in this frame, and from which stream."""
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "make_rng":
            if isinstance(func.value, ast.Name) and func.value.id == self.this and call.args:
                stream = self.evaluate(call.args[0])
                return (call, stream) if isinstance(stream, str) else None
            return None
        found = _construction(self.ctx, func, self.scope, self)
        if found is None:
            return None
        construction, scope = found
        layer = self.ctx.model.qualname(construction.func, scope)
        if layer in DRAWING_LAYERS:
            return self._dropout_draw(call, construction, DRAWING_LAYERS[layer])
        submodule = module_class(self.ctx, construction, scope)
        if submodule is None:
            return None
        inner = Frame.of_module(self.ctx, submodule, construction, scope, self)
        if inner is None or any(isinstance(a, ast.Starred) for a in call.args):
            return None
        return inner.draw_in_call(submodule, call.args, call.keywords, self)

    def _dropout_draw(
        self, call: ast.Call, construction: ast.Call, stream: str
    ) -> tuple[ast.Call, str] | None:
        flag = measured.linen_mode_flags().get("flax.linen.Dropout")
        if flag is None:
            return None
        deterministic = _argument(call, flag.parameter, flag.call_position)
        if deterministic is None:
            deterministic = _argument(construction, flag.parameter, flag.constructor_position)
        rate = _argument(construction, "rate", 0)
        collection = _argument(construction, "rng_collection", 3)
        if deterministic is None or rate is None:
            return None
        rate_value = self.evaluate(rate)
        if self.evaluate(deterministic) is not False or rate_value is UNKNOWN or not rate_value:
            return None
        named = stream if collection is None else self.evaluate(collection)
        return (call, named) if isinstance(named, str) else None


def _construction(
    ctx: Context, expr: ast.expr, scope: Scope, frame: Frame | None = None
) -> tuple[ast.Call, Scope] | None:
    """The ``Module(...)`` call ``expr`` is, with the scope it is written in: the call itself, a
    name bound once to one, or ``self.attr`` that ``setup`` alone stores one in."""
    if isinstance(expr, ast.Call):
        return expr, scope
    if isinstance(expr, ast.Name):
        owner = scope.lookup(expr.id)
        value = None if owner is None else owner.single_value(expr.id)
        return (value, owner) if isinstance(value, ast.Call) and owner is not None else None
    if (
        frame is not None
        and frame.cls is not None
        and isinstance(expr, ast.Attribute)
        and isinstance(expr.value, ast.Name)
        and expr.value.id == frame.this
    ):
        held = ctx.model.held_value(frame.cls, expr.attr)
        if held is None or not isinstance(held[1], ast.Call):
            return None
        return held[1], ctx.model.index.scopes.get(held[0], ctx.model.index.module)
    return None


def _argument(call: ast.Call, name: str, position: int) -> ast.expr | None:
    """The argument ``call`` gives parameter ``name`` (at ``position``), if it gives one."""
    for keyword in call.keywords:
        if keyword.arg == name:
            return keyword.value
    return call.args[position] if position < len(call.args) else None


def _always_run_calls(body: list[ast.stmt]) -> list[ast.Call]:
    """The calls of a function body that every run makes: its straight-line statements (and
    ``with`` blocks), up to the first statement that may leave early or branch around them.
    Lambdas, comprehensions and nested definitions are not run by the statement."""
    calls: list[ast.Call] = []
    for statement in body:
        if isinstance(statement, ast.With):
            calls += [c for item in statement.items for c in _calls_in(item.context_expr)]
            nested = _always_run_calls(statement.body)
            calls += nested
            if any(isinstance(n, (ast.Return, ast.Raise)) for n in ast.walk(statement)):
                return calls
            continue
        if isinstance(statement, (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return)):
            if statement.value is not None:
                calls += _calls_in(statement.value)
            if isinstance(statement, ast.Return):
                return calls
            continue
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Pass)):
            continue
        return calls  # a branch, a loop, a `try`: what follows may not run
    return calls


def _calls_in(expr: ast.expr) -> list[ast.Call]:
    """The calls an expression makes, innermost first (arguments run before the call)."""
    if isinstance(expr, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
        return []
    if isinstance(expr, ast.IfExp):
        return _calls_in(expr.test)
    found: list[ast.Call] = []
    for child in ast.iter_child_nodes(expr):
        if isinstance(child, ast.expr):
            found += _calls_in(child)
    if isinstance(expr, ast.Call):
        found.append(expr)
    return found
