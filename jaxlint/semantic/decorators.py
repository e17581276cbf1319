"""Decorators of the project that forward every call to the function they decorate.

``@jax.jit`` over such a decorator traces the wrapper, which calls the decorated function with
the same arguments: for what is traced, the decorator is transparent, as ``functools.wraps`` is.
The shape recognised is the usual one::

    def logged(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            ...                      # anything that leaves `fn`, `args` and `kwargs` alone
            return fn(*args, **kwargs)
        return wrapper

A wrapper that changes, drops or adds arguments is not transparent (a flag it passes becomes a
Python value where the jit would trace it), so it is not recognised. Nor is one without
``functools.wraps``: JAX reads the signature of the function it jits, and without ``wraps`` that
is ``(*args, **kwargs)``, where ``static_argnames`` names nothing passed by position (measured).
"""

from __future__ import annotations

import ast


def forwards_calls(node: ast.AST) -> bool:
    """Whether ``node`` is a decorator that returns a wrapper calling the function it is given
    with the wrapper's own ``*args``/``**kwargs``, unchanged, and nothing else."""
    if not isinstance(node, ast.FunctionDef) or node.decorator_list or _parameters(node.args) != 1:
        return False
    decorated = node.args.args[0].arg if node.args.args else node.args.posonlyargs[0].arg
    body = [s for s in node.body if not _docstring(s)]
    if len(body) != 2 or not isinstance(body[0], ast.FunctionDef) or not isinstance(body[1], ast.Return):
        return False
    wrapper, returned = body[0], body[1].value
    if not (isinstance(returned, ast.Name) and returned.id == wrapper.name):
        return False
    return _forwards(wrapper, decorated)


def _forwards(wrapper: ast.FunctionDef, decorated: str) -> bool:
    """Whether ``wrapper(*args, **kwargs)`` calls ``decorated`` only as ``decorated(*args,
    **kwargs)``, binds none of the three names, and is wrapped by ``functools.wraps`` alone."""
    args = wrapper.args
    varargs, kwargs = args.vararg, args.kwarg
    if _parameters(args) or varargs is None or not any(_wraps(d, decorated) for d in wrapper.decorator_list):
        return False
    if len(wrapper.decorator_list) != 1:
        return False
    names = {decorated, varargs.arg, *([kwargs.arg] if kwargs else [])}
    nodes = [n for statement in wrapper.body for n in ast.walk(statement)]  # nested code too
    if any(isinstance(n, ast.Name) and n.id in names and not isinstance(n.ctx, ast.Load) for n in nodes):
        return False
    if any(isinstance(n, (ast.Nonlocal, ast.Global)) for n in nodes):
        return False
    calls = [
        n
        for n in nodes
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == decorated
    ]
    uses = [n for n in nodes if isinstance(n, ast.Name) and n.id == decorated]
    return bool(calls) and len(calls) == len(uses) and all(_forwarded(c, varargs.arg, kwargs) for c in calls)


def _forwarded(call: ast.Call, varargs: str, kwargs: ast.arg | None) -> bool:
    """``call`` is ``f(*varargs, **kwargs)`` exactly (``f(*varargs)`` when there is no ``**``)."""
    if len(call.args) != 1 or not isinstance(call.args[0], ast.Starred):
        return False
    star = call.args[0].value
    if not (isinstance(star, ast.Name) and star.id == varargs):
        return False
    if kwargs is None:
        return not call.keywords
    if len(call.keywords) != 1 or call.keywords[0].arg is not None:
        return False
    double = call.keywords[0].value
    return isinstance(double, ast.Name) and double.id == kwargs.arg


def _wraps(decorator: ast.expr, decorated: str) -> bool:
    """``@functools.wraps(fn)`` or ``@wraps(fn)``, copying the decorated function's metadata."""
    if not isinstance(decorator, ast.Call) or len(decorator.args) != 1:
        return False
    func, argument = decorator.func, decorator.args[0]
    named = (isinstance(func, ast.Name) and func.id == "wraps") or (
        isinstance(func, ast.Attribute) and func.attr == "wraps"
    )
    return named and isinstance(argument, ast.Name) and argument.id == decorated


def _parameters(args: ast.arguments) -> int:
    """The parameters that are neither ``*args`` nor ``**kwargs``."""
    return len(args.posonlyargs) + len(args.args) + len(args.kwonlyargs)


def _docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )
