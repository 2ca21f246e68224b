"""klampt.math.autodiff.pytorch: Klamp't autodiff functions inside PyTorch
graphs and PyTorch modules inside Klamp't expressions.

Forward values equal the Klamp't functions' values, PyTorch gradients equal
w^T J with J the Klamp't derivative (and pass torch.autograd.gradcheck, i.e.
agree with finite differences), and a wrapped PyTorch module's derivatives
agree with central finite differences of its values.
"""
import numpy as np
import pytest
import torch

from klampt.math import so3
from klampt.math.autodiff import ad, kinematics_ad, math_ad, se3_ad, so3_ad
from klampt.math.autodiff.pytorch import ADModule, TorchModuleFunction, ad_to_torch, torch_to_ad

F64 = torch.float64
RNG = np.random.default_rng(3)
R1 = np.array(so3.from_rpy([0.3, -0.5, 1.1]))
R2 = np.array(so3.from_rpy([-1.2, 0.4, 0.2]))
T1 = np.hstack((np.array(so3.from_rpy([0.1, 0.7, -0.4])), [0.5, -1.0, 2.0]))
X = np.array([0.4, -1.3, 2.2])

# (Klamp't function, argument values)
CASES = [
    (so3_ad.mul, [R1, R2]),
    (so3_ad.apply, [R1, X]),
    (so3_ad.from_rpy, [np.array([0.3, -0.2, 0.9])]),
    (se3_ad.apply, [T1, X]),
    (se3_ad.mul, [T1, np.hstack((R2, X))]),
    (math_ad.norm, [X]),
    (math_ad.distance, [X, np.array([1.0, 0.5, -0.5])]),
    (math_ad.sin, [X]),
]


def tensors(values):
    return [torch.tensor(np.atleast_1d(v), dtype=F64, requires_grad=True) for v in values]


@pytest.mark.parametrize("func,values", CASES, ids=[str(c[0]) for c in CASES])
def test_values_and_gradients_equal_the_autodiff_function(func, values):
    module = ad_to_torch(func)
    args = tensors(values)
    out = module(*args)
    expected = np.atleast_1d(func.eval(*values))
    np.testing.assert_allclose(out.detach().numpy().reshape(-1), expected, rtol=1e-12, atol=1e-12)
    w = RNG.normal(size=expected.size)
    (out.reshape(-1) @ torch.tensor(w, dtype=F64)).backward()
    expr = func(*[ad.var(func.argname(i)) for i in range(len(values))])
    context = {func.argname(i): v for i, v in enumerate(values)}
    for i, a in enumerate(args):
        J = expr.derivative(func.argname(i), **context)
        np.testing.assert_allclose(a.grad.numpy(), w @ J, rtol=1e-10, atol=1e-10)
    assert torch.autograd.gradcheck(lambda *p: module(*p), tuple(tensors(values)), eps=1e-6, atol=1e-5, rtol=1e-4)


def test_kinematics_link_position_gradcheck(robot):
    link = robot.link(robot.numLinks() - 1)
    wp = kinematics_ad.WorldPosition(link, [0.1, -0.2, 0.3])
    q = RNG.uniform(-1, 1, robot.numLinks())
    qt = torch.tensor(q, dtype=F64, requires_grad=True)
    p = ad_to_torch(wp)(qt)
    robot.setConfig(q.tolist())
    np.testing.assert_allclose(p.detach().numpy(), link.getWorldPosition([0.1, -0.2, 0.3]), atol=1e-12)
    p[2].backward()
    # the z row of the robot's own position Jacobian
    np.testing.assert_allclose(qt.grad.numpy(), np.array(link.getPositionJacobian([0.1, -0.2, 0.3]))[2], atol=1e-10)
    assert torch.autograd.gradcheck(ad_to_torch(wp), (torch.tensor(q, dtype=F64, requires_grad=True),),
                                    eps=1e-6, atol=1e-5, rtol=1e-4)


def test_expression_with_named_terminals_in_any_order():
    x, y = ad.var('x'), ad.var('y')
    expr = math_ad.dot(so3_ad.apply(y, x), x) + math_ad.norm(x) * 2.0
    module = ad_to_torch(expr, ['y', x])
    assert module.terminals == ['y', x]
    yt, xt = tensors([R1, X])
    out = module(yt, xt)
    assert out.shape == torch.Size([])  # scalar result: 0-dimensional tensor
    assert out.item() == pytest.approx(float(expr.eval(x=X, y=R1)), rel=1e-12)
    out.backward()
    grads = expr.gradient(x=X, y=R1)
    np.testing.assert_allclose(xt.grad.numpy(), grads['x'], rtol=1e-10)
    np.testing.assert_allclose(yt.grad.numpy(), grads['y'], rtol=1e-10)
    # a scalar variable as a 0-dimensional tensor gets a 0-dimensional gradient
    s = torch.tensor(0.7, dtype=F64, requires_grad=True)
    ad_to_torch(math_ad.sin(ad.var('s')))(s).backward()
    assert s.grad.shape == torch.Size([]) and float(s.grad) == pytest.approx(np.cos(0.7))
    # inside a larger torch computation, torch's own derivatives compose with Klamp't's
    z = torch.tensor(X, dtype=F64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda z: torch.tanh(ad_to_torch(expr, ['y', 'x'])(torch.tensor(R1, dtype=F64), 2 * z)),
                                    (z,), eps=1e-6, atol=1e-5, rtol=1e-4)


def test_check_derivatives_torch_accepts_right_and_rejects_wrong_derivatives():
    assert ADModule.check_derivatives_torch(so3_ad.mul, ['R1', 'R2'])
    wrong = ad.function(lambda x: x ** 2, 'square', (3,), 3, ['x'], derivative=[lambda x: np.diag(3 * x)])
    with pytest.raises(Exception, match="Jacobian mismatch"):
        ADModule.check_derivatives_torch(wrong, ['x'])


def test_bad_input_raises_clear_errors():
    with pytest.raises(ValueError, match="expected to have 2 arguments"):
        ad_to_torch(so3_ad.apply)(torch.zeros(9, dtype=F64))
    with pytest.raises(ValueError, match="expects 2"):
        ad_to_torch(so3_ad.apply, ['R'])
    with pytest.raises(ValueError, match="not among the terminals"):
        ad_to_torch(ad.var('x') + ad.var('y'), ['x', 'z'])
    with pytest.raises(ValueError, match="ADFunctionCall or an ADFunctionInterface"):
        ad_to_torch(np.sin)
    with pytest.raises(ValueError, match="callable"):
        TorchModuleFunction(3)


class Net(torch.nn.Module):
    """A small two-argument network: tanh(W x + b) * y."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.lin = torch.nn.Linear(3, 2).double()

    def forward(self, x, y):
        return torch.tanh(self.lin(x)) * y


def test_torch_module_derivatives_equal_finite_differences():
    f = TorchModuleFunction(Net())
    x, y = np.array([0.3, -0.8, 1.5]), np.array([2.0, -0.5])
    with torch.no_grad():
        expected = (torch.tanh(f.module.lin(torch.tensor(x))) * torch.tensor(y)).numpy()
    np.testing.assert_allclose(f.eval(x, y), expected, rtol=1e-12)
    for i, v in enumerate((x, y)):
        def g(z):
            args = [x, y]
            args[i] = z
            return f.eval(*args)
        fd = ad.finite_differences(g, v)
        J = f.derivative(i, x, y)
        assert J.shape == (2, v.size)
        np.testing.assert_allclose(J, fd, rtol=1e-6, atol=1e-8)
        d = RNG.normal(size=v.size)
        np.testing.assert_allclose(f.jvp(i, d, x, y), fd @ d, rtol=1e-6, atol=1e-8)
        w = RNG.normal(size=2)
        np.testing.assert_allclose(f.vjp(i, w, x, y), w @ fd, rtol=1e-6, atol=1e-8)
    assert ad.check_derivatives(f, [x, y])


def test_torch_to_ad_composes_with_klampt_expressions():
    # a plain function of tensors, in a Klamp't expression on both sides
    call = torch_to_ad(lambda a, b: (a * b).sum() + torch.sin(a[0]), (math_ad.sin(ad.var('x')), 'y'))
    expr = math_ad.exp(call)
    x, y = np.array([0.2, 1.1]), np.array([-0.4, 0.9])
    value = np.exp(np.sum(np.sin(x) * y) + np.sin(np.sin(x[0])))
    assert float(expr.eval(x=x, y=y)) == pytest.approx(value, rel=1e-12)
    for name, v in (('x', x), ('y', y)):
        def g(z):
            return expr.eval(**dict({'x': x, 'y': y}, **{name: z}))
        fd = ad.finite_differences(g, v)
        np.testing.assert_allclose(expr.derivative(name, x=x, y=y), fd.reshape(1, -1), rtol=1e-6, atol=1e-8)
        np.testing.assert_allclose(expr.gradient(name, x=x, y=y), fd.reshape(-1), rtol=1e-6, atol=1e-8)
    # and back into torch: a round trip keeps value and gradient
    back = ad_to_torch(expr, ['x', 'y'])
    xt, yt = tensors([x, y])
    out = back(xt, yt)
    assert out.item() == pytest.approx(value, rel=1e-12)
    out.backward()
    xr = torch.tensor(x, dtype=F64, requires_grad=True)
    torch.exp((torch.sin(xr) * torch.tensor(y)).sum() + torch.sin(torch.sin(xr[0]))).backward()
    np.testing.assert_allclose(xt.grad.numpy(), xr.grad.numpy(), rtol=1e-8)


def test_public_names_have_docstrings():
    # the main suite's docstring test skips this module (it needs torch)
    from test_docstrings import documented
    import klampt.math.autodiff.pytorch as bridge
    assert documented(bridge)
    for name in ("ADModule", "TorchModuleFunction", "ad_to_torch", "torch_to_ad"):
        obj = getattr(bridge, name)
        assert documented(obj), name
        if isinstance(obj, type):
            for attr in vars(obj):
                if not attr.startswith("_") and callable(getattr(obj, attr)):
                    assert documented(getattr(obj, attr), attr), (name, attr)
