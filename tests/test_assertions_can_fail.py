"""Every check in the test suite can fail: no comparison or `and`/`or` chain
standing alone as a statement (its value is dropped, and `assert_close(a)
and assert_close(b)` never runs its second half), and no `assert` on a
value that is always true (a tuple, a string, a constant).  Every .py file
under tests/ is read, subfolders included."""
import ast

from conftest import python_trees


def checks_that_cannot_fail(tree):
    """(line, reason) of each statement of the parsed module `tree` that checks nothing."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, (ast.Compare, ast.BoolOp)):
            kind = "comparison" if isinstance(node.value, ast.Compare) else "and/or chain"
            found.append((node.lineno, "a %s whose value is dropped" % kind))
        elif isinstance(node, ast.Assert) and isinstance(node.test, (ast.Tuple, ast.Constant, ast.JoinedStr)):
            if not (isinstance(node.test, ast.Constant) and not node.test.value):  # `assert False` can fail
                found.append((node.lineno, "an assert on a value that is always true"))
    return found


def test_the_checker_finds_each_kind():
    sample = (
        "def test_x(a, b):\n"
        "    assert_close(a, 1) and assert_close(b, 2)\n"
        "    a == b\n"
        "    assert (a == b, 'message')\n"
        "    assert 'always'\n"
        "    assert False, 'fails'\n"
        "    assert a == b\n"
        "    x = a == b\n"
    )
    assert [line for line, _ in checks_that_cannot_fail(ast.parse(sample))] == [2, 3, 4, 5]


def test_no_test_file_has_a_check_that_cannot_fail():
    trees = python_trees()
    assert "compas_fab_backend/conftest.py" in trees  # the subfolders are read too
    problems = []
    for path, tree in trees.items():
        for line, reason in checks_that_cannot_fail(tree):
            problems.append("%s:%d: %s" % (path, line, reason))
    assert not problems, "\n".join(problems)
