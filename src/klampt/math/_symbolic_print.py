"""The string form of symbolic expressions (``str``, ``repr`` and
:func:`klampt.math.symbolic_io.exprToStr`)."""

import json

import numpy as np

from ._symbolic_types import _services
from ._symbolic_expressions import ConstantExpression, VariableExpression, UserDataExpression, OperatorExpression
from ._symbolic_library import _infix_operators, _prefix_operators

VAR_PREFIX = ''
USER_DATA_PREFIX = '$'
NAMED_EXPRESSION_TAG = '#'
NAMED_EXPRESSION_PREFIX = '@'

# Python's operator binding (smaller binds tighter)
_PRECEDENCE = {'pow': 1, 'neg': 1.5, 'mul': 2, 'div': 2, 'add': 3, 'sum': 3, 'sub': 3,
               'ge': 4, 'le': 4, 'eq': 4, 'ne': 4, 'not': 5, 'and': 6, 'or': 7}


def indent(s, spaces):
    """Indents the continuation lines of s by the given number of spaces."""
    if spaces <= 0:
        return s
    return s.replace('\n', '\n' + ' ' * spaces)


def _jsonable(val):
    if isinstance(val, (bool, np.bool_)):
        return bool(val)
    if isinstance(val, np.integer):
        return int(val)
    if isinstance(val, np.floating):
        return float(val)
    if isinstance(val, (int, float, str)):
        return val
    if isinstance(val, np.ndarray):
        return val.tolist()
    if isinstance(val, (list, tuple)):
        return [_jsonable(v) for v in val]
    from ..io import loader  # klampt.io sits above klampt.math: only for klampt objects
    try:
        return loader.to_json(val)
    except Exception as e:
        raise ValueError("Unable to convert object %r to a JSON object" % (val,)) from e


def _shared_nodes(e):
    """The OperatorExpressions reached more than once in the DAG of e."""
    counts, order = {}, []

    def rec(node):
        if not isinstance(node, OperatorExpression):
            return
        if id(node) in counts:
            counts[id(node)] += 1
            return
        counts[id(node)] = 1
        order.append(node)
        for a in node.args:
            rec(a)
    rec(e)
    return set(k for k, c in counts.items() if c > 1)


def _const_str(v, parseCompatible):
    if isinstance(v, slice):
        return "%s:%s%s" % ("" if v.start is None else v.start, "" if v.stop is None else v.stop,
                            "" if v.step is None else ":" + str(v.step))
    try:
        jv = _jsonable(v)
    except ValueError:
        return str(v)
    if parseCompatible:
        return json.dumps(jv)
    if isinstance(jv, float):
        return format(jv, '.14g')
    return json.dumps(jv)


def exprToStr(expr, parseCompatible=True, expandSubexprs='auto'):
    """A string form of an Expression; readable by :func:`exprFromStr` if
    ``parseCompatible``.  Shared sub-expressions are tagged (#id / @id)
    unless ``expandSubexprs`` is True (the default when not parse-compatible)."""
    if expandSubexprs == 'auto':
        expandSubexprs = not parseCompatible
    shared = set() if expandSubexprs else _shared_nodes(expr)
    tags = {}

    def rec(node, parent=None, position=0):
        if isinstance(node, ConstantExpression):
            s = _const_str(node.value, parseCompatible)
            if parseCompatible and isinstance(node.value, str):
                s = 'const(%s)' % s
            return s
        if isinstance(node, VariableExpression):
            return VAR_PREFIX + node.var.name
        if isinstance(node, UserDataExpression):
            return USER_DATA_PREFIX + node.name
        if not isinstance(node, OperatorExpression):
            return str(node)
        if id(node) in tags:
            return NAMED_EXPRESSION_PREFIX + tags[id(node)]
        name = node.functionInfo.name
        astr = [rec(a, node, i) for i, a in enumerate(node.args)]
        f = node.functionInfo
        printer = f.printers.get('parse' if parseCompatible else 'str')
        if printer is not None:
            res = printer(node, astr)
        elif name in _prefix_operators and len(astr) == 1:
            res = _prefix_operators[name] + astr[0]
        elif name in _infix_operators and len(astr) >= 2 and (name in ('add', 'sum', 'mul') or len(astr) == 2):
            res = _infix_operators[name].join(astr)
        elif name == 'getitem':
            res = astr[0] + '[' + _index_str(node.args[1], astr[1]) + ']'
        else:
            res = name + '(' + ','.join(astr) + ')'
        if name in _PRECEDENCE and isinstance(parent, OperatorExpression):
            pname = parent.functionInfo.name
            if pname in _PRECEDENCE:
                p, pp = _PRECEDENCE[name], _PRECEDENCE[pname]
                if p > pp or (p == pp and not (name == pname and f.properties.get('associative', False))
                              and not (name in ('add', 'sum') and pname in ('add', 'sum', 'sub') and position == 0)):
                    res = '(' + res + ')'
            elif pname == 'getitem' and position == 0:
                res = '(' + res + ')'
        if id(node) in shared:
            tag = str(len(tags) + 1)
            tags[id(node)] = tag
            if not res.endswith(')') or not (res.startswith('(') or res[0].isalpha()):
                res = '(' + res + ')'
            res = res + NAMED_EXPRESSION_TAG + tag
        return res
    return rec(expr)


def _index_str(index_expr, s):
    if isinstance(index_expr, ConstantExpression):
        v = index_expr.value
        if isinstance(v, tuple):
            return ','.join(_const_str(x, True) for x in v)
    return s


_services['exprToStr'] = exprToStr
