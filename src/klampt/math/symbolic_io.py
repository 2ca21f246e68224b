"""String and JSON forms of symbolic expressions, types and contexts.

Strings: variables are written by name, user data as ``$name``, constants in
JSON form, functions as ``name(args)`` with the usual infix operators.  In
the parseable form, a sub-expression used more than once is written the
first time with a ``#tag`` suffix and later as ``@tag``.

JSON: a variable is its name, user data ``"$name"``, a constant its JSON
value, a call ``{"type": name, "args": [...]}`` (with ``"id"`` on shared
sub-expressions, referenced later as ``"@id"``).
"""

import ast
import json
import re

from .symbolic import (Expression, ConstantExpression, VariableExpression, UserDataExpression, OperatorExpression,
                       Context, Function, Type, const, expr)
from ._symbolic_library import _builtin_functions, array
from ._symbolic_engine import _derivative_functions
from ._symbolic_print import VAR_PREFIX, USER_DATA_PREFIX, NAMED_EXPRESSION_PREFIX, exprToStr, _jsonable, _shared_nodes
from ._symbolic_print import NAMED_EXPRESSION_TAG, indent  # noqa: F401  (public names of this module)


def _unwrap(v):
    return v.value if isinstance(v, ConstantExpression) else v


def _convert_list(*args):
    if all(isinstance(a, ConstantExpression) for a in args):
        return ConstantExpression([a.value for a in args])
    return array(*args)


class _Namespace:
    pass


def exprFromStr(context, string, fmt=None, add=False):
    """Parses an Expression from a string (or JSON if ``fmt='json'`` or the
    string starts with '{').  Names are the context's Variables, ``$name``
    user data and ``@name`` named expressions; undefined names raise
    ValueError unless ``add`` creates them as numeric Variables."""
    if not string:
        raise ValueError("Empty string provided")
    if fmt is None:
        fmt = 'json' if string.lstrip()[0] == '{' else 'auto'
    if fmt == 'json':
        return exprFromJson(context, json.loads(string))
    if fmt != 'auto':
        raise ValueError("Invalid format " + str(fmt))
    tags = dict(context.expressions)
    s = re.sub(r"\bif\s*\(", "_if(", string)
    s = re.sub(r"\$(\w+)", lambda m: '___U(%r)' % m.group(1), s)
    s = re.sub(r"#(\w+)", lambda m: '.__settag__(%r)' % m.group(1), s)
    s = re.sub(r"@(\w+)", lambda m: '___T(%r)' % m.group(1), s)
    try:
        tree = ast.parse(s, mode='eval')
    except SyntaxError as e:
        raise ValueError("Unable to parse expression %r: %s" % (string, e)) from e
    functions = dict(_builtin_functions)
    functions.update(_derivative_functions)
    for name, f in context.customFunctions.items():
        path = name.split('.')
        root = functions
        for p in path[:-1]:
            if p not in root:
                root[p] = _Namespace()
            root = root[p] if isinstance(root, dict) else root
            if not isinstance(root, dict):
                break
        if len(path) == 1:
            functions[name] = f
        else:
            obj = functions[path[0]]
            for p in path[1:-1]:
                if not hasattr(obj, p):
                    setattr(obj, p, _Namespace())
                obj = getattr(obj, p)
            setattr(obj, path[-1], f)
    names = {}
    missing = []

    class Rewrite(ast.NodeTransformer):
        def visit_Call(self, node):
            node.args = [self.visit(a) for a in node.args]
            if not isinstance(node.func, ast.Name):
                node.func = self.visit(node.func) if isinstance(node.func, ast.Attribute) and not _is_dotted_function(node.func, functions) else node.func
            elif node.func.id not in functions and node.func.id not in ('___U', '___T', 'const', '_const', '_slice', '_if', '_and', '_or', '_not'):
                raise ValueError("Undefined function " + node.func.id)
            return node

        def visit_Name(self, node):
            if node.id in ('___U', '___T', 'const', '_const', '_convert_list', '_if', '_and', '_or', '_not', 'True', 'False', 'None'):
                return node
            if node.id in context.variableDict:
                names[node.id] = expr(context.variableDict[node.id])
            elif add:
                names[node.id] = expr(context.addVar(node.id, 'N'))
            elif node.id in functions:
                return node
            else:
                missing.append(node.id)
            return node

        def visit_BoolOp(self, node):
            fname = '_and' if isinstance(node.op, ast.And) else '_or'
            vals = [self.visit(v) for v in node.values]
            res = vals[0]
            for v in vals[1:]:
                res = ast.Call(func=ast.Name(id=fname, ctx=ast.Load()), args=[res, v], keywords=[])
            return ast.copy_location(res, node)

        def visit_UnaryOp(self, node):
            node.operand = self.visit(node.operand)
            if isinstance(node.op, (ast.Not, ast.Invert)):
                return ast.copy_location(ast.Call(func=ast.Name(id='_not', ctx=ast.Load()), args=[node.operand], keywords=[]), node)
            return node

        def visit_Constant(self, node):
            return ast.copy_location(ast.Call(func=ast.Name(id='_const', ctx=ast.Load()), args=[node], keywords=[]), node)

        def visit_List(self, node):
            return ast.copy_location(ast.Call(func=ast.Name(id='_convert_list', ctx=ast.Load()),
                                              args=[self.visit(e) for e in node.elts], keywords=[]), node)

        def visit_Tuple(self, node):
            return self.visit_List(node)

        def visit_Slice(self, node):
            parts = [ast.Constant(value=None) if p is None else self.visit(p) for p in (node.lower, node.upper, node.step)]
            return ast.copy_location(ast.Call(func=ast.Name(id='_slice', ctx=ast.Load()), args=parts, keywords=[]), node)

        def visit_Subscript(self, node):
            node.value = self.visit(node.value)
            sl = node.slice
            if isinstance(sl, ast.Tuple):
                node.slice = ast.copy_location(ast.Call(func=ast.Name(id='_index_tuple', ctx=ast.Load()),
                                                        args=[self.visit(e) for e in sl.elts], keywords=[]), sl)
            else:
                node.slice = self.visit(sl)
            return node

    tree = ast.fix_missing_locations(Rewrite().visit(tree))
    if missing:
        raise ValueError("Undefined variable " + ','.join(missing))

    def settag(self, name):
        tags[_unwrap(name)] = self
        return self

    def _const(v):
        if isinstance(v, ConstantExpression):
            return v
        return ConstantExpression(v) if v is not None else None

    env = dict(functions)
    env.update(names)
    env.update({'___U': lambda n: UserDataExpression(_unwrap(n)), '___T': lambda n: tags[_unwrap(n)], 'const': lambda v: v, '_const': _const,
                '_convert_list': _convert_list, '_if': _builtin_functions['if'], '_and': _builtin_functions['and'], '_or': _builtin_functions['or'],
                '_not': _builtin_functions['not'],
                '_slice': lambda a, b, c: ConstantExpression(slice(*[None if x is None else x.value for x in (a, b, c)])),
                '_index_tuple': lambda *a: ConstantExpression(tuple(x.value for x in a)) if all(isinstance(x, ConstantExpression) for x in a) else _convert_list(*a),
                '__builtins__': {}})
    Expression.__settag__ = settag
    try:
        res = eval(compile(tree, '<symbolic>', 'eval'), env)
    finally:
        del Expression.__settag__
    return expr(res)


def _is_dotted_function(node, functions):
    path = []
    while isinstance(node, ast.Attribute):
        path.append(node.attr)
        node = node.value
    return isinstance(node, ast.Name) and node.id in functions and not isinstance(functions[node.id], Function)


def _const_to_json(v):
    if isinstance(v, str):
        return {'str': v}
    if isinstance(v, slice):
        return {'slice': [v.start, v.stop, v.step]}
    if isinstance(v, tuple):
        return {'tuple': [_const_to_json(x) for x in v]}
    return _jsonable(v)


def _const_from_json(obj):
    if isinstance(obj, dict) and set(obj) == {'slice'}:
        return slice(*obj['slice'])
    if isinstance(obj, dict) and set(obj) == {'tuple'}:
        return tuple(_const_from_json(x) for x in obj['tuple'])
    if isinstance(obj, dict) and set(obj) == {'str'}:
        return obj['str']
    return obj


def exprToJson(expr):
    """A JSON object of an Expression (see the module documentation).
    String, slice and tuple constants are written as {"str": s},
    {"slice": [start, stop, step]} and {"tuple": [...]} (a plain string is a
    variable name)."""
    shared = _shared_nodes(expr)
    tags = {}

    def rec(node):
        if isinstance(node, ConstantExpression):
            return _const_to_json(node.value)
        if isinstance(node, UserDataExpression):
            return USER_DATA_PREFIX + node.name
        if isinstance(node, VariableExpression):
            return VAR_PREFIX + node.var.name
        if not isinstance(node, OperatorExpression):
            raise ValueError("Can't convert %s to JSON" % node.__class__.__name__)
        if id(node) in tags:
            return NAMED_EXPRESSION_PREFIX + tags[id(node)]
        res = {'type': node.functionInfo.name, 'args': [rec(a) for a in node.args]}
        if id(node) in shared:
            tags[id(node)] = str(len(tags) + 1)
            res['id'] = tags[id(node)]
        return res
    return rec(expr)


def exprFromJson(context, jsonObj, taggedExpressions=None):
    """An Expression from a JSON object written by :func:`exprToJson`.  A
    plain string is a variable name (or $user data, @tag); other JSON values
    are constants."""
    if taggedExpressions is None:
        taggedExpressions = {}
    if isinstance(jsonObj, str):
        if jsonObj.startswith(USER_DATA_PREFIX):
            return UserDataExpression(jsonObj[len(USER_DATA_PREFIX):])
        if jsonObj.startswith(NAMED_EXPRESSION_PREFIX):
            name = jsonObj[len(NAMED_EXPRESSION_PREFIX):]
            if name in taggedExpressions:
                return taggedExpressions[name]
            if name in context.expressions:
                return context.expressions[name]
            raise ValueError("Invalid expression tag " + jsonObj)
        if jsonObj in context.variableDict:
            return expr(context.variableDict[jsonObj])
        raise ValueError("Invalid variable reference " + jsonObj)
    if isinstance(jsonObj, dict) and 'type' in jsonObj and 'args' in jsonObj:
        name = str(jsonObj['type'])
        args = [exprFromJson(context, a, taggedExpressions) if isinstance(a, (str, dict)) else const(a)
                for a in jsonObj['args']]
        if name in _builtin_functions:
            f = _builtin_functions[name]
        elif name in context.customFunctions:
            f = context.customFunctions[name]
        elif name in _derivative_functions:
            f = _derivative_functions[name]
        else:
            raise ValueError("Invalid expression type " + name)
        res = f._call(*args)
        if 'id' in jsonObj:
            taggedExpressions[str(jsonObj['id'])] = res
        return res
    if isinstance(jsonObj, dict) and set(jsonObj) in ({'slice'}, {'tuple'}, {'str'}):
        return const(_const_from_json(jsonObj))
    if isinstance(jsonObj, dict):
        from ..io import loader  # klampt.io sits above klampt.math: only for klampt objects in the JSON
        return const(loader.from_json(jsonObj))
    if isinstance(jsonObj, list):
        return const(jsonObj)
    return const(jsonObj)


def typeToJson(type):
    """A JSON object of a :class:`Type`."""
    res = {'char': type.char}
    if type.size is not None:
        res['size'] = list(type.size) if isinstance(type.size, tuple) else type.size
    if type.subtype is not None:
        if isinstance(type.subtype, str):
            res['subtype'] = type.subtype
        elif isinstance(type.subtype, list):
            res['subtype'] = [typeToJson(st) for st in type.subtype]
        else:
            res['subtype'] = typeToJson(type.subtype)
    return res


def typeFromJson(jsonObj):
    """A :class:`Type` from its JSON object."""
    if 'char' not in jsonObj:
        raise ValueError("Type JSON object needs a 'char'")
    st = jsonObj.get('subtype')
    if isinstance(st, list):
        st = [typeFromJson(s) for s in st]
    elif isinstance(st, dict):
        st = typeFromJson(st)
    if jsonObj['char'] == 'U':
        return Type(st, jsonObj.get('size')) if isinstance(st, str) and len(st) > 1 else Type('U', jsonObj.get('size'), st)
    return Type(jsonObj['char'], jsonObj.get('size'), st)


def contextToJson(ctx, saveFunctions=False):
    """A JSON object of a Context's variables and named expressions; user
    data (and custom functions if ``saveFunctions``) are saved by name only."""
    res = {}
    if ctx.variables:
        res['variables'] = [{'name': v.name, 'type': typeToJson(v.type)} for v in ctx.variables]
    if ctx.expressions:
        res['expressions'] = dict((n, exprToJson(e)) for n, e in ctx.expressions.items())
    if saveFunctions and ctx.customFunctions:
        res['customFunctions'] = list(ctx.customFunctions.keys())
    if ctx.userData:
        res['userData'] = list(ctx.userData.keys())
    return res


def contextFromJson(context, jsonObj):
    """Restores variables and named expressions from :func:`contextToJson`
    into ``context`` (whose user data and custom functions must already be
    set up) and returns it."""
    import warnings
    for d in jsonObj.get('userData', []):
        if d not in context.userData:
            warnings.warn("contextFromJson: item {} is not yet in userData".format(d))
    for d in jsonObj.get('customFunctions', []):
        if d not in context.customFunctions:
            warnings.warn("contextFromJson: item {} is not yet in customFunctions".format(d))
    context.variables = []
    context.variableDict = {}
    context.expressions = {}
    for v in jsonObj.get('variables', []):
        context.addVar(v['name'], typeFromJson(v['type']))
    for n, e in jsonObj.get('expressions', {}).items():
        context.expressions[n] = exprFromJson(context, e)
    return context


def toStr(obj, parseCompatible=True):
    """The string form of an Expression."""
    if not isinstance(obj, Expression):
        raise ValueError("Can only convert Expressions to strings")
    return exprToStr(obj, parseCompatible)


def toJson(obj):
    """The JSON object of an Expression or Context."""
    if isinstance(obj, Expression):
        return exprToJson(obj)
    if isinstance(obj, Context):
        return contextToJson(obj)
    raise ValueError("Argument needs to be an Expression or Context")


def latex(expr):
    """LaTeX code for an Expression (requires SymPy)."""
    import sympy
    from . import symbolic_sympy  # needs the optional sympy
    return sympy.latex(symbolic_sympy.exprToSympy(expr))


def pprint(expr):
    """Pretty-prints an Expression (with SymPy's printer if it can convert it)."""
    try:
        import sympy
        from . import symbolic_sympy  # needs the optional sympy
        sympy.pprint(symbolic_sympy.exprToSympy(expr), use_unicode=False)
    except (ImportError, TypeError, ValueError, NotImplementedError):
        print(exprToStr(expr, parseCompatible=False))


def codegen(name_expr, language=None, **options):
    """Code for one or more expressions via ``sympy.utilities.codegen``: a
    (name, Expression) pair, a list of pairs, or Expression-based Functions.
    Requires SymPy."""
    from sympy.utilities.codegen import codegen as sympy_codegen
    from . import symbolic_sympy  # needs the optional sympy

    def convert(ne):
        if isinstance(ne, Function):
            if not isinstance(ne.func, Expression):
                raise ValueError("Can't do code generation for plain Python function %s" % ne.name)
            return (ne.name, symbolic_sympy.exprToSympy(ne.func))
        if not isinstance(ne, (list, tuple)) or len(ne) != 2 or not isinstance(ne[0], str):
            raise ValueError("Input must be a (str,Expression) pair")
        name, e = ne
        if isinstance(e, (list, tuple)):
            return name, [symbolic_sympy.exprToSympy(x) for x in e]
        return name, symbolic_sympy.exprToSympy(e)
    if isinstance(name_expr, (list, tuple)) and name_expr and isinstance(name_expr[0], (list, tuple, Function)):
        converted = [convert(x) for x in name_expr]
    else:
        converted = convert(name_expr)
    return sympy_codegen(converted, language=language, **options)
