"""The Python half of the `python` probe's bridge: what a probe function takes, read from its signature, and the
`hooks` object it is handed. Used by lib/featurelab/python/libfeaturelab-python-bridge.so; not an API of its own.

A probe function names the arguments it wants among STANDARD (any of them, in any order; **kwargs: all of them),
and declares its own parameters as further keyword parameters: a default makes one optional, its type comes from
the annotation (int, float, bool, str, list[int], list[float], list[str]) or else from the default. An optional
attribute `featurelab_params = {"top": {"min": 1, "doc": "..."}}` adds bounds (min, max, above, below), choices
and documentation. The pipeline's [[probe]] table sets them (`top = 8`), and featurelab checks them before anything
runs, as it checks a C++ component's parameters.
"""
import inspect
import typing

STANDARD = ("step", "params", "train", "test", "features", "hooks")

_TYPES = {bool: "bool", int: "int", float: "real", str: "string"}
_LIST_TYPES = {int: "int list", float: "real list", str: "string list"}  # as featurelab names them
_REFINEMENTS = {"min", "max", "above", "below", "choices", "doc"}


def _type_name(annotation, default, where):
    if annotation is not inspect.Parameter.empty:
        if annotation in _TYPES:
            return _TYPES[annotation]
        if typing.get_origin(annotation) in (list, typing.List):
            (item,) = typing.get_args(annotation) or (None,)
            if item in _LIST_TYPES:
                return _LIST_TYPES[item]
        raise TypeError(f"{where}: annotated {annotation!r}; a probe parameter is an int, float, bool, str, "
                        "list[int], list[float] or list[str]")
    if default is not inspect.Parameter.empty:
        if type(default) in _TYPES:
            return _TYPES[type(default)]
        if isinstance(default, (list, tuple)) and default and len({type(v) for v in default}) == 1 \
                and type(default[0]) in _LIST_TYPES:
            return _LIST_TYPES[type(default[0])]
    raise TypeError(f"{where}: give it a type annotation (int, float, bool, str, list[int], list[float], list[str]) "
                    "or a default of one of these types")


def describe(function):
    """(the standard arguments it takes, [(name, type, required, default, refinements)] of its own parameters)."""
    name = getattr(function, "__qualname__", repr(function))
    if not callable(function):
        raise TypeError(f"{name} is not callable")
    signature = inspect.signature(function)
    try:
        hints = typing.get_type_hints(function)
    except Exception:  # unresolvable string annotations: fall back to what the signature says
        hints = {}
    refinements = getattr(function, "featurelab_params", {})
    if not isinstance(refinements, dict):
        raise TypeError(f"{name}.featurelab_params must be a dict {{parameter: {{'min': ..., 'doc': ...}}}}")
    standard, own = [], []
    for p in signature.parameters.values():
        if p.kind is inspect.Parameter.VAR_KEYWORD:
            standard = [s for s in STANDARD]
            continue
        if p.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.POSITIONAL_ONLY):
            raise TypeError(f"{name}: parameter '{p.name}' cannot be passed by keyword; featurelab passes every "
                            "argument by name")
        if p.name in STANDARD:
            standard.append(p.name)
            continue
        where = f"{name}, parameter '{p.name}'"
        extra = refinements.get(p.name, {})
        unknown = set(extra) - _REFINEMENTS
        if unknown:
            raise TypeError(f"{name}.featurelab_params['{p.name}']: unknown key(s) {sorted(unknown)}; "
                            f"use {sorted(_REFINEMENTS)}")
        default = None if p.default is inspect.Parameter.empty else p.default
        own.append((p.name, _type_name(hints.get(p.name, p.annotation), p.default, where),
                    p.default is inspect.Parameter.empty, default, dict(extra)))
    for key in refinements:
        if key not in [o[0] for o in own]:
            raise TypeError(f"{name}.featurelab_params names '{key}', which is not a parameter of the function")
    return list(dict.fromkeys(standard)), own


class Hooks:
    """The model's hook points: hooks(name, X) -> the activations at hook point `name` for inputs X (n × D, e.g.
    train["X"] or test["X"]), a new array; hooks.points: {name: (shape, doc)}. Valid during the call only."""

    def __init__(self, points, compute):
        self.points = points
        self._compute = compute

    def __call__(self, name, X):
        if name not in self.points:
            raise KeyError(f"no hook point '{name}'; the model has: {', '.join(self.points) or 'none'}")
        return self._compute(name, X)

    def __contains__(self, name):
        return name in self.points

    def __repr__(self):
        return "Hooks(" + ", ".join(f"{n}: {shape}" for n, (shape, _) in self.points.items()) + ")"
