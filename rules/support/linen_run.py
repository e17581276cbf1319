"""Running a flax linen module's ``__call__`` in the mind: which library layers and
submodules it always calls, with which flag values, for ``module.apply(variables, ...)`` given
literal arguments (JAX628: a dropout that needs ``rngs``; JAX629: a batch norm that updates
its statistics). Only straight-line code counts, and only values literals and fields decide:
anything else is ``UNKNOWN``, and the rules stay silent on it."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from jaxlint.engine.context import Context
from jaxlint.semantic import measured
from jaxlint.semantic.scopes import Scope

from .constructions import called_construction
from .linen import field_defaults, method_named, module_class

UNKNOWN = object()  # a value the module's own code does not decide
DEPTH = 3  # submodules followed into, and names followed to their single binding
T = TypeVar("T")
# what a rule looks for in one call: (the frame, the call, the library layer's construction and
# qualified name, or None, None for the call itself) -> a finding, or None
Check = Callable[["Frame", ast.Call, "ast.Call | None", "str | None"], "T | None"]


def applied_module(ctx: Context, node: ast.Call, check: Check[T]) -> tuple[ast.ClassDef, T] | None:
    """For ``module.apply(variables, *args, **kwargs)`` on a linen module class of this file,
    the class and what ``check`` finds first among the calls its ``__call__`` always makes with
    these arguments. None for another call, or where nothing is found."""
    func = node.func
    if not isinstance(func, ast.Attribute) or func.attr != "apply" or not node.args:
        return None
    if any(k.arg in ("method", None) for k in node.keywords) or any(
        isinstance(a, ast.Starred) for a in node.args
    ):
        return None  # another method runs, or the arguments are unpacked
    built = called_construction(
        ctx, func.value, self_class=lambda name: None
    )  # `self.model.apply`: not followed
    if built is None:
        return None
    construction, scope = built
    cls = module_class(ctx, construction, scope)
    if cls is None:
        return None
    caller = Frame(ctx, ctx.scope)
    module = Frame.of_module(ctx, cls, construction, scope, caller)
    found = None if module is None else module.run_call(cls, node.args[1:], node.keywords, caller, check)
    return None if found is None else (cls, found)


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

    def run_call(
        self,
        module: ast.ClassDef,
        args: list[ast.expr],
        keywords: list[ast.keyword],
        caller: Frame,
        check: Check[T],
    ) -> T | None:
        """What ``check`` finds first among the calls ``module.__call__`` always makes when
        called with these arguments (evaluated in ``caller``), in it or in its submodules."""
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
        for call in always_run_calls(method.body):
            found = self.visit(call, check)
            if found is not None:
                return found
        return None

    def visit(self, call: ast.Call, check: Check[T]) -> T | None:
        """What ``check`` finds in ``call``: the call itself, the library layer it calls, or
        what a submodule of this file it calls always runs."""
        found = check(self, call, None, None)
        if found is not None:
            return found
        built = called_construction(self.ctx, call.func, self.scope, self.instance_of)
        if built is None:
            return None
        construction, scope = built
        found = check(self, call, construction, self.ctx.model.qualname(construction.func, scope))
        if found is not None:
            return found
        submodule = module_class(self.ctx, construction, scope)
        if submodule is None:
            return None
        inner = Frame.of_module(self.ctx, submodule, construction, scope, self)
        if inner is None or any(isinstance(a, ast.Starred) for a in call.args):
            return None
        return inner.run_call(submodule, call.args, call.keywords, self, check)

    def instance_of(self, name: str) -> ast.ClassDef | None:
        """The module class ``name`` is the instance of here: the ``self`` of ``__call__``."""
        return self.cls if name == self.this else None

    def mode_flag(self, call: ast.Call, construction: ast.Call, layer: str) -> object:
        """The value of ``layer``'s measured mode flag (``Dropout``'s ``deterministic``) in
        this call: from the call, else from the construction; None where neither gives it."""
        flag = measured.linen_mode_flags().get(layer)
        if flag is None:
            return None
        given = argument(call, flag.parameter, flag.call_position)
        if given is None:
            given = argument(construction, flag.parameter, flag.constructor_position)
        return None if given is None else self.evaluate(given)


def argument(call: ast.Call, name: str, position: int) -> ast.expr | None:
    """The argument ``call`` gives parameter ``name`` (at ``position``), if it gives one."""
    for keyword in call.keywords:
        if keyword.arg == name:
            return keyword.value
    return call.args[position] if position < len(call.args) else None


def always_run_calls(body: list[ast.stmt]) -> list[ast.Call]:
    """The calls of a function body that every run makes: its straight-line statements (and
    ``with`` blocks), up to the first statement that may leave early or branch around them.
    Lambdas, comprehensions and nested definitions are not run by the statement."""
    calls: list[ast.Call] = []
    for statement in body:
        if isinstance(statement, ast.With):
            calls += [c for item in statement.items for c in calls_in(item.context_expr)]
            nested = always_run_calls(statement.body)
            calls += nested
            if any(isinstance(n, (ast.Return, ast.Raise)) for n in ast.walk(statement)):
                return calls
            continue
        if isinstance(statement, (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return)):
            if statement.value is not None:
                calls += calls_in(statement.value)
            if isinstance(statement, ast.Return):
                return calls
            continue
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Pass)):
            continue
        return calls  # a branch, a loop, a `try`: what follows may not run
    return calls


def calls_in(expr: ast.expr) -> list[ast.Call]:
    """The calls an expression makes, innermost first (arguments run before the call)."""
    if isinstance(expr, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
        return []
    if isinstance(expr, ast.IfExp):
        return calls_in(expr.test)
    found: list[ast.Call] = []
    for child in ast.iter_child_nodes(expr):
        if isinstance(child, ast.expr):
            found += calls_in(child)
    if isinstance(expr, ast.Call):
        found.append(expr)
    return found
