"""Checks of numeric arguments worded as the extension's converters word
theirs (cpp/bindings/convert.cpp), so that a Python function and a bound
one reject a bad number alike: ``ValueError("q must be finite, got nan
(element 2)")``, the element left out when the argument is a single number.
"""
import math


def _number(v):
    """v as the converters print it: C's ``%g``, a NaN's sign included."""
    if math.isnan(v) and math.copysign(1.0, v) < 0:
        return "-nan"
    return "%g" % v


def _fail(name, rule, v, i, n):
    msg = "%s must %s, got %s" % (name, rule, _number(v))
    if n > 1:
        msg += " (element %d)" % i
    raise ValueError(msg)


def check_finite(values, name):
    """Raises ValueError ``"<name> must be finite, got <v> (element <i>)"``
    at the first NaN or infinite entry of values, a number or a flat
    sequence of numbers."""
    if hasattr(values, '__len__'):
        for i, v in enumerate(values):
            if not math.isfinite(v):
                _fail(name, "be finite", v, i, len(values))
    elif not math.isfinite(values):
        _fail(name, "be finite", values, 0, 1)


def check_not_nan(values, name):
    """Raises ValueError ``"<name> must not be NaN, got nan (element <i>)"``
    at the first NaN entry of values (a number or a flat sequence of
    numbers); infinities pass."""
    if hasattr(values, '__len__'):
        for i, v in enumerate(values):
            if math.isnan(v):
                _fail(name, "not be NaN", v, i, len(values))
    elif math.isnan(values):
        _fail(name, "not be NaN", values, 0, 1)
