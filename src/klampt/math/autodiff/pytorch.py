"""Bridges between Klamp't autodiff and `PyTorch <https://pytorch.org>`_ (an
optional dependency: ``pip install torch``).

* :func:`ad_to_torch` / :class:`ADModule` make a Klamp't autodiff function
  (an :class:`~klampt.math.autodiff.ad.ADFunctionInterface` or an expression
  :class:`~klampt.math.autodiff.ad.ADFunctionCall`) usable in a PyTorch
  computation graph: its forward pass evaluates the Klamp't function and its
  backward pass uses the Klamp't derivatives (reverse mode).
* :func:`torch_to_ad` / :class:`TorchModuleFunction` make a PyTorch module or
  function of tensors usable in Klamp't expressions: derivatives come from
  PyTorch's autograd.

Example::

    import torch
    from klampt.math.autodiff import so3_ad
    from klampt.math.autodiff.pytorch import ad_to_torch
    apply = ad_to_torch(so3_ad.apply)           # torch module of (R, p)
    R = torch.eye(3, dtype=torch.float64).flatten().requires_grad_()
    p = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
    apply(R, p).sum().backward()                 # R.grad, p.grad

Values cross the bridge as scalars or 1D arrays, as Klamp't autodiff
requires: a 0-dimensional tensor is a scalar, a tensor of any other shape is
flattened.
"""
try:
    import torch
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("klampt.math.autodiff.pytorch needs the optional package 'torch' "
                      "(install it with: pip install torch)") from exc
import numpy as np

from . import ad


def _to_numpy(t):
    """A tensor as a float scalar (0-dimensional) or a flat float64 array."""
    a = t.detach().cpu().numpy().astype(float)
    return float(a) if a.ndim == 0 else a.reshape(-1)


def _terminal_name(t):
    return t.name if isinstance(t, ad.ADTerminal) else t


def _as_expression(func, terminals):
    """(expression, variable names) computing func on the given terminals.

    An ADFunctionInterface is applied to fresh variables, one per terminal, so
    that both kinds of function are differentiated by the expression
    machinery (which falls back among derivative/jvp/vjp/finite differences).
    """
    if isinstance(func, ad.ADFunctionCall):
        names = [_terminal_name(t) for t in terminals]
        for name in names:
            if not isinstance(name, str):
                raise ValueError("Terminals must be names or ADTerminal objects, got %r" % (name,))
        missing = [n for n in func.terminals() if n not in names]
        if missing:
            raise ValueError("Function call %s has variables %s that are not among the terminals %s"
                             % (str(func), missing, names))
        return func, names
    if isinstance(func, ad.ADFunctionInterface):
        names = ["_torch_arg%d" % i for i in range(len(terminals))]
        return func(*[ad.ADTerminal(n) for n in names]), names
    raise ValueError("func must be an ADFunctionCall or an ADFunctionInterface, got %s" % type(func).__name__)


class ADModule(torch.autograd.Function):
    """A PyTorch autograd Function that evaluates a Klamp't autodiff function
    call or function instance; call it as
    ``ADModule.apply(func, terminals, *tensors)``.

    ``terminals`` lists what the tensors are bound to: for an
    :class:`~klampt.math.autodiff.ad.ADFunctionCall`, the names (or
    :class:`~klampt.math.autodiff.ad.ADTerminal` objects) of its variables;
    for an :class:`~klampt.math.autodiff.ad.ADFunctionInterface`, one entry
    per positional argument.  The result has the dtype and device of the
    first tensor, and is 0-dimensional if the function returns a scalar.
    Gradients are vector-Jacobian products of the Klamp't derivatives.
    :func:`ad_to_torch` wraps this in a ``torch.nn.Module``.
    """

    @staticmethod
    def forward(ctx, func, terminals, *args):
        """Evaluates func on the tensors args bound to terminals."""
        if len(args) != len(terminals):
            raise ValueError("Function %s expected to have %d arguments, instead got %d"
                             % (str(func), len(terminals), len(args)))
        expr, names = _as_expression(func, terminals)
        context = {n: _to_numpy(torch.as_tensor(a)) for n, a in zip(names, args)}
        value = expr.eval(**context)
        template = next((a for a in args if isinstance(a, torch.Tensor)), None)
        dtype = template.dtype if template is not None and template.is_floating_point() else torch.float64
        device = template.device if template is not None else None
        ctx.saved_state = (expr, names, context, [torch.as_tensor(a).shape for a in args], dtype, device)
        return torch.as_tensor(np.asarray(value, dtype=float), dtype=dtype, device=device)

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, grad):
        """Gradients with respect to the tensor arguments (None for func and
        terminals), from one reverse sweep of the Klamp't expression."""
        expr, names, context, shapes, dtype, device = ctx.saved_state
        grads = [None, None]
        if not any(ctx.needs_input_grad[2:]):
            return tuple(grads + [None] * len(names))
        adj = expr.vjp(grad.detach().cpu().numpy().astype(float).reshape(-1), **context)
        for k, (name, shape) in enumerate(zip(names, shapes)):
            if not ctx.needs_input_grad[2 + k]:
                grads.append(None)
                continue
            grads.append(torch.as_tensor(adj[name], dtype=dtype, device=device).reshape(shape))
        return tuple(grads)

    @staticmethod
    def check_derivatives_torch(func, terminals, h=1e-6, rtol=1e-2, atol=1e-3):
        """Checks the gradients of :meth:`apply` on func against finite
        differences with ``torch.autograd.gradcheck`` at random float64
        arguments (of size ``func.n_in(i)`` when known, else 10); raises
        an exception if they disagree, returns True otherwise."""
        params = []
        for i in range(len(terminals)):
            n = -1
            if isinstance(func, ad.ADFunctionInterface):
                n = ad._known(func.n_in, i)
            params.append(torch.randn(n if n >= 0 else 10, dtype=torch.float64, requires_grad=True))
        return torch.autograd.gradcheck(lambda *p: ADModule.apply(func, terminals, *p), tuple(params),
                                        eps=h, atol=atol, rtol=rtol, raise_exception=True)


class _ADTorchModule(torch.nn.Module):
    """The torch.nn.Module that :func:`ad_to_torch` returns."""

    def __init__(self, func, terminals):
        super().__init__()
        self.func = func
        self.terminals = list(terminals)

    def forward(self, *args):
        """The Klamp't function of the tensors args, one per terminal."""
        return ADModule.apply(self.func, self.terminals, *args)

    def extra_repr(self):
        return "%s, terminals=%s" % (str(self.func), [_terminal_name(t) for t in self.terminals])


class TorchModuleFunction(ad.ADFunctionInterface):
    """A PyTorch module (or any function of tensors) as a Klamp't autodiff
    function: :meth:`eval` runs it and the derivatives come from PyTorch's
    autograd.

    Arguments are converted to tensors of the dtype of the module's first
    parameter (float64 if it has none); scalars become 0-dimensional tensors
    and arrays 1D tensors.  The result is flattened (a 0-dimensional result is
    a scalar).  The number and sizes of arguments are whatever the module
    accepts.
    """

    def __init__(self, module):
        if not callable(module):
            raise ValueError("TorchModuleFunction needs a callable module, got %s" % type(module).__name__)
        self.module = module
        params = list(module.parameters()) if isinstance(module, torch.nn.Module) else []
        self.dtype = params[0].dtype if params else torch.float64
        self.device = params[0].device if params else None

    def __str__(self):
        return str(self.module)

    def n_in(self, arg):
        """Any size (-1)."""
        return -1

    def n_out(self):
        """Varies (-1)."""
        return -1

    def _tensors(self, args):
        res = []
        for a in args:
            a = np.asarray(a, dtype=float)
            if a.ndim > 1:
                raise ValueError("TorchModuleFunction arguments must be scalars or 1D arrays")
            res.append(torch.as_tensor(a, dtype=self.dtype, device=self.device))
        return res

    def _flat(self, *tensors):
        out = self.module(*tensors)
        if not isinstance(out, torch.Tensor):
            raise ValueError("Module %s must return a tensor, got %s" % (str(self.module), type(out).__name__))
        return out.reshape(-1) if out.dim() else out

    def _partial(self, arg, args):
        """(function of argument #arg only, its tensor value)."""
        tensors = self._tensors(args)

        def f(x):
            return self._flat(*(tensors[:arg] + [x] + tensors[arg + 1:]))
        return f, tensors[arg]

    def eval(self, *args):
        """Runs the module on the arguments."""
        with torch.no_grad():
            return _to_numpy(self._flat(*self._tensors(args)))

    def derivative(self, arg, *args):
        """The Jacobian with respect to argument #arg, of shape
        ``(size(result), size(argument))``."""
        f, x = self._partial(arg, args)
        jac = torch.autograd.functional.jacobian(f, x)
        n_out = max(1, int(np.prod(jac.shape[:jac.dim() - x.dim()])))
        return jac.detach().cpu().numpy().astype(float).reshape((n_out, max(1, x.numel())))

    def jvp(self, arg, darg, *args):
        """Jacobian-vector product with the tangent darg of argument #arg."""
        f, x = self._partial(arg, args)
        v = torch.as_tensor(np.asarray(darg, dtype=float), dtype=self.dtype, device=self.device).reshape(x.shape)
        return _to_numpy(torch.autograd.functional.jvp(f, x, v)[1])

    def vjp(self, arg, dout, *args):
        """Vector-Jacobian product of the result's adjoint dout with the
        derivative with respect to argument #arg."""
        f, x = self._partial(arg, args)
        with torch.no_grad():
            out = f(x)
        w = torch.as_tensor(np.asarray(dout, dtype=float), dtype=self.dtype, device=self.device).reshape(out.shape)
        g = torch.autograd.functional.vjp(f, x, w)[1]
        return np.asarray(_to_numpy(g), dtype=float).reshape(-1)


def torch_to_ad(module, args):
    """Converts a PyTorch module (or function of tensors) applied to args (a
    tuple of scalars, numpy arrays, variable names or Klamp't expressions) to a
    Klamp't autodiff function call on those arguments."""
    return TorchModuleFunction(module)(*args)


def ad_to_torch(func, terminals=None):
    """Converts a Klamp't autodiff function call or function instance to a
    ``torch.nn.Module`` whose forward pass takes one tensor per terminal
    (see :class:`ADModule`).

    If terminals is None, they are the variables of the expression in order
    of first appearance, or the arguments of the function instance (which
    must then know its number of arguments).
    """
    if isinstance(func, ad.ADFunctionCall):
        if terminals is None:
            terminals = func.terminals()
        elif len(terminals) != len(func.terminals()):
            raise ValueError("Function call %s has variables %s, got %d terminals"
                             % (str(func), func.terminals(), len(terminals)))
    elif isinstance(func, ad.ADFunctionInterface):
        n = ad._known(func.n_args)
        if terminals is None:
            if n < 0:
                raise ValueError("Function %s takes a variable number of arguments: give its terminals" % str(func))
            terminals = [func.argname(i) for i in range(n)]
        elif n >= 0 and len(terminals) != n:
            raise ValueError("Invalid number of terminals, function %s expects %d" % (str(func), n))
    else:
        raise ValueError("func must be an ADFunctionCall or an ADFunctionInterface, got %s" % type(func).__name__)
    _as_expression(func, terminals)
    return _ADTorchModule(func, terminals)
