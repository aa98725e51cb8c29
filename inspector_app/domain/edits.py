"""An edit of a case as a change from one version to another, applied to what is stored now.

A form shows a case as it was loaded (`before`) and produces the case as the user left it
(`after`). Saving writes only what the user changed: the difference between the two is
applied to the case as it is stored at the moment of saving, so a value that changed
meanwhile elsewhere (a sync import, an accepted finding, another window) is kept, and a
value that both changed is refused rather than silently overwritten.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass, replace
from typing import Any

from .case import Case


class EditConflict(ValueError):
    """The same value was changed by the user and, meanwhile, somewhere else."""

    def __init__(self, path: str, stored: Any, mine: Any) -> None:
        super().__init__(f"{path}: changed elsewhere since the form was opened "
                         f"(now {_said(stored)}; your value {_said(mine)})")
        self.path = path


def _said(value: Any) -> str:
    """A value as the refusal says it: "blank" for nothing, a list's items quoted."""
    if value is None or value == "" or value == () or value == []:
        return "blank"
    if isinstance(value, list | tuple):
        return ", ".join(repr(v) for v in value)
    return repr(value)


def changed_paths(before: Any, after: Any, path: str = "") -> list[str]:
    """Dotted paths of the leaves that differ (list items as `name[i]`)."""
    if before == after:
        return []
    if _same_shape(before, after):
        if is_dataclass(before):
            return [p for f in fields(before) for p in changed_paths(
                getattr(before, f.name), getattr(after, f.name), _join(path, f.name))]
        if isinstance(before, dict):
            return [p for k in dict.fromkeys([*before, *after]) for p in changed_paths(
                before.get(k, _MISSING), after.get(k, _MISSING), _join(path, k))]
        return [p for i, (b, a) in enumerate(zip(before, after, strict=True))
                for p in changed_paths(b, a, f"{path}[{i}]")]
    return [path or "(case)"]


def apply_edit(stored: Any, before: Any, after: Any, path: str = "") -> Any:
    """`stored` with the change from `before` to `after` applied, leaf by leaf."""
    if before == after:
        return stored
    if stored == before:
        return after
    if _same_shape(before, after) and _same_shape(before, stored):
        if is_dataclass(before):
            merged = {f.name: apply_edit(getattr(stored, f.name), getattr(before, f.name),
                                         getattr(after, f.name), _join(path, f.name))
                      for f in fields(before)}
            return replace(stored, **merged)
        if isinstance(before, dict):
            return _dict_merge(lambda k, x, b, a: apply_edit(x, b, a, _join(path, k)),
                               stored, before, after)
        return type(stored)(apply_edit(s, b, a, f"{path}[{i}]")
                            for i, (s, b, a) in enumerate(zip(stored, before, after,
                                                              strict=True)))
    if stored == after:
        return stored
    raise EditConflict(path or "(case)", stored, after)


def overlay(loaded: Any, baseline: Any, after: Any) -> Any:
    """`loaded` with only the leaves that differ between `baseline` and `after` taken from
    `after`: what a form read back without any change (`baseline`) never overrides a
    stored value, even where the form cannot show it exactly."""
    if baseline == after:
        return loaded
    if _same_shape(baseline, after) and _same_shape(baseline, loaded):
        if is_dataclass(baseline):
            return replace(loaded, **{
                f.name: overlay(getattr(loaded, f.name), getattr(baseline, f.name),
                                getattr(after, f.name)) for f in fields(baseline)})
        if isinstance(baseline, dict):
            return _dict_merge(lambda _k, x, b, a: overlay(x, b, a),
                               loaded, baseline, after)
        return type(loaded)(overlay(x, b, a)
                            for x, b, a in zip(loaded, baseline, after, strict=True))
    return after


def apply_case_edit(stored: Case, before: Case, after: Case) -> Case:
    if not (stored.parcel.sbl == before.parcel.sbl == after.parcel.sbl):
        raise EditConflict("parcel.sbl", stored.parcel.sbl, after.parcel.sbl)
    merged: Case = apply_edit(stored, before, after)
    return merged


_MISSING: Any = object()


def _dict_merge(fn: Any, x: dict[str, Any], b: dict[str, Any], a: dict[str, Any]
                ) -> dict[str, Any]:
    """Merge key by key (`fn(key, x, b, a)`); a key missing from the result is dropped."""
    out = {}
    for key in dict.fromkeys([*x, *b, *a]):
        value = fn(key, x.get(key, _MISSING), b.get(key, _MISSING), a.get(key, _MISSING))
        if value is not _MISSING:
            out[key] = value
    return out


def _same_shape(a: Any, b: Any) -> bool:
    if is_dataclass(a) and not isinstance(a, type):
        return type(a) is type(b)
    if isinstance(a, dict):
        return isinstance(b, dict)
    return isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b)


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name
