"""Option checking shared by the backend features: unknown options are errors, never silently ignored."""

from typing import Iterable, Optional

__all__ = ["check_options", "aliased"]


def check_options(options: Optional[dict], known: Iterable[str], feature: str) -> dict:
    """A copy of ``options`` (``{}`` for ``None``); raises ``ValueError`` naming every option ``feature`` does not know.

    ``known`` may be empty: the feature takes no option.

    Keys starting with ``_`` are the backend's internal switches and pass.
    """
    options = dict(options or {})
    known = set(known)
    unknown = sorted(k for k in options if k not in known and not str(k).startswith("_"))
    if unknown:
        accepted = "its options are " + ", ".join(sorted(known)) if known else "it takes no options"
        raise ValueError("{} does not support the option(s) {}; {}".format(
            feature, ", ".join(repr(k) for k in unknown), accepted))
    return options


def aliased(options: dict, name: str, alias: str, convert=lambda v: v, default=None):
    """The value of option ``name``, or of its synonym ``alias`` (converted); ``ValueError`` when both disagree."""
    if alias in options:
        value = convert(options[alias])
        if name in options and options[name] != value:
            raise ValueError("options {!r}={!r} and {!r}={!r} disagree".format(name, options[name], alias, options[alias]))
        return value
    return options.get(name, default)
