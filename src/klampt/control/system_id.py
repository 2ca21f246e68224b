"""Online least squares and linear system identification (numpy only):
:class:`OnlineLeastSquares` keeps the solution of a growing regularized
least-squares problem, :class:`LinearSystemID` fits ``y = A x + B u + C``.
"""
import math
import warnings

import numpy as np


def check_symmetry(A, tol=1e-7):
    """True if A is symmetric within tol (warns otherwise)."""
    err = float(np.amax(np.abs(A - A.T))) if A.size else 0.0
    if err >= tol:
        warnings.warn("Matrix is not symmetric: error %g" % err, RuntimeWarning)
        return False
    return True


def sherman_woodbury_inplace(Ainv, v, w, c=1.0):
    """Replaces Ainv = A^-1 by (A + c v w^T)^-1, in place."""
    Av = Ainv.dot(v)
    wA = w.dot(Ainv) if v is not w else Av
    scale = c / (1.0 + c * float(np.dot(w, Av)))
    Ainv -= scale * np.outer(Av, wA)


class OnlineLeastSquares:
    """The solution x of ``min sum_i w_i (a_i^T x - b_i)^2 + lambda |x|^2``,
    updated in O(n^2) per :meth:`add` (Sherman-Morrison).  While the normal
    matrix is singular (``degenerate``), x is the minimum-norm solution.

    The normal equations are stored divided by ``scale`` and rescaled when
    their norm passes ``rescaleThreshold``, for numerical stability.
    """

    def __init__(self, n, regularizationLambda=0):
        self.n = n
        self.count = 0
        self.sumWeight = 0.0
        self.scale = 1.0
        self.rescaleThreshold = 1e1
        self.AtA = np.zeros((n, n))
        self.Atb = np.zeros(n)
        self.btb = 0.0
        self.AtAinv = np.zeros((n, n))
        self.degenerate = True
        self.x = np.zeros(n)
        self.regularizationLambda = regularizationLambda
        if regularizationLambda > 0:
            self.AtA = np.eye(n) * regularizationLambda
            self.AtAinv = np.eye(n) / regularizationLambda
            self.degenerate = False

    def setPrior(self, xPrior, priorWeight):
        """A prior belief x ~= xPrior with weight priorWeight; call before
        adding points, without regularization."""
        if self.regularizationLambda != 0:
            raise ValueError("setPrior cannot be combined with regularization")
        xPrior = np.asarray(xPrior, dtype=float)
        self.count = 1
        self.sumWeight = float(priorWeight)
        self.scale = 1.0
        self.AtA = np.eye(self.n) * priorWeight
        self.AtAinv = np.eye(self.n) / priorWeight
        self.Atb = xPrior * priorWeight
        self.btb = float(np.dot(xPrior, xPrior)) * priorWeight
        self.degenerate = False
        self.x = xPrior.copy()

    def solution(self):
        """The current solution x."""
        return self.x

    def residualNorm2(self):
        """``||Ax - b||^2`` (weighted), from the normal equations."""
        r2 = (float(np.dot(self.x, self.AtA.dot(self.x) - 2.0 * self.Atb)) + self.btb) * self.scale
        if self.regularizationLambda > 0:
            r2 -= self.regularizationLambda * float(np.dot(self.x, self.x))
        return max(r2, 0.0)

    def residualNorm(self):
        """``||Ax - b||``."""
        return math.sqrt(self.residualNorm2())

    def standardError2(self):
        """The squared OLS standard error (inf with too few points)."""
        if self.count <= self.n:
            return float('inf')
        return self.residualNorm2() / self.sumWeight * (self.count / (self.count - self.n))

    def standardError(self):
        """The OLS standard error."""
        return math.sqrt(self.standardError2())

    def solutionCovariance(self):
        """The covariance matrix of x."""
        return self.standardError2() * self.AtAinv / self.scale

    def solutionStandardErrors(self):
        """The standard error of each entry of x."""
        s2 = self.standardError2()
        res = []
        for i in range(self.n):
            v = s2 * self.AtAinv[i, i] / self.scale
            res.append(math.sqrt(v) if v >= 0 else float('nan'))
        return res

    def predictionAndVariance(self, a):
        """(a^T x, its predictive variance)."""
        a = np.asarray(a, dtype=float)
        return (float(np.dot(a, self.x)),
                self.standardError2() * (1.0 + float(np.dot(a, self.AtAinv.dot(a))) / self.scale))

    def setLambda(self, regularizationLambda):
        """Changes the regularization, keeping the data (O(n^3))."""
        self.AtA += (regularizationLambda - self.regularizationLambda) * np.eye(self.n) / self.scale
        self.regularizationLambda = regularizationLambda
        self.calc_AtAinv()
        self.x = self.AtAinv.dot(self.Atb)

    def add(self, a, b, weight=1.0):
        """Adds the datapoint a^T x ~= b with the given weight (O(n^2))."""
        a = np.asarray(a, dtype=float)
        if a.shape != (self.n,):
            raise ValueError("OnlineLeastSquares.add: a must have %d entries, got %s" % (self.n, a.shape))
        if weight < 0:
            raise ValueError("OnlineLeastSquares.add: weight must be >= 0")
        self.count += 1
        w = weight / self.scale
        self.sumWeight += weight
        self.Atb += (w * b) * a
        self.btb += w * b * b
        self.AtA += w * np.outer(a, a)
        if not self.degenerate:
            sherman_woodbury_inplace(self.AtAinv, a, a, w)
        else:
            self.calc_AtAinv()
        self.x = self.AtAinv.dot(self.Atb)
        self.checkRescale()

    def checkRescale(self):
        """Rescales the stored normal equations when they grow large."""
        nrm = float(np.linalg.norm(self.AtA))
        if nrm > self.rescaleThreshold:
            self.scale *= nrm
            self.AtA /= nrm
            self.Atb /= nrm
            self.btb /= nrm
            self.AtAinv *= nrm

    def discount(self, discountFactor, type='geometric'):
        """Down-weights the data seen so far by discountFactor (0 < f <= 1);
        'hyperbolic' treats the factor as the weight of new items in a
        running average."""
        if not discountFactor > 0:
            raise ValueError("discount factor must be > 0")
        if type == 'hyperbolic':
            self.discount((1.0 / discountFactor - 1.0) / max(self.sumWeight, 1e-300))
            return
        lam = self.regularizationLambda / self.scale
        self.AtA = (self.AtA - lam * np.eye(self.n)) * discountFactor + lam * np.eye(self.n)
        self.Atb *= discountFactor
        self.btb *= discountFactor
        self.sumWeight *= discountFactor
        self.calc_AtAinv()
        self.x = self.AtAinv.dot(self.Atb)

    def calc_AtAinv(self):
        """Recomputes the inverse (pseudo-inverse when singular)."""
        try:
            if np.linalg.matrix_rank(self.AtA) < self.n:
                raise np.linalg.LinAlgError("singular")
            self.AtAinv = np.linalg.inv(self.AtA)
            self.degenerate = False
        except np.linalg.LinAlgError:
            self.AtAinv = np.linalg.pinv(self.AtA)
            self.degenerate = True


class LinearSystemID:
    """Online identification of ``y = A x + B u + C`` (m states, n inputs),
    one least-squares estimator per row.  Entries may be fixed before data
    arrives: in the patterns (m x m, m x n, m), None is free and a number is
    that fixed value."""

    def __init__(self, m, n):
        self.m, self.n = m, n
        self.coeffPattern = [None, None, None]
        self.estimators = [OnlineLeastSquares(m + n + 1) for i in range(m)]

    def setPattern(self, Apattern, Bpattern, Cpattern):
        """Sets which coefficients are fixed (see the class docstring)."""
        self.coeffPattern = [Apattern, Bpattern, Cpattern]
        for i in range(self.m):
            self._updateEstimatorSize(i)

    def _pattern(self, k, shape):
        if self.coeffPattern[k] is None:
            self.coeffPattern[k] = [[None] * shape for i in range(self.m)] if shape else [None] * self.m
        return self.coeffPattern[k]

    def fixA(self, i, j, value):
        """Fixes A[i][j]."""
        self._pattern(0, self.m)[i][j] = value
        self._updateEstimatorSize(i)

    def fixB(self, i, j, value):
        """Fixes B[i][j]."""
        self._pattern(1, self.n)[i][j] = value
        self._updateEstimatorSize(i)

    def fixC(self, i, value):
        """Fixes C[i]."""
        self._pattern(2, 0)[i] = value
        self._updateEstimatorSize(i)

    def add(self, x, u, y, weight=1.0):
        """Adds the datapoint (x, u) -> y."""
        x, u, y = list(map(float, x)), list(map(float, u)), list(map(float, y))
        if len(x) != self.m or len(y) != self.m or len(u) != self.n:
            raise ValueError("LinearSystemID.add: x and y need %d entries, u %d" % (self.m, self.n))
        for i, e in enumerate(self.estimators):
            if e is None:
                continue
            xuc, offset = self._toEstimator(i, x, u)
            e.add(xuc, y[i] - offset, weight)

    def discount(self, discountFactor, type='geometric'):
        """Down-weights the data seen so far."""
        for e in self.estimators:
            if e is not None:
                e.discount(discountFactor, type)

    def setModelPrior(self, A, B, C, priorWeight):
        """A prior belief (A, B, C); after fixing coefficients, before data."""
        A, B, C = np.asarray(A, dtype=float), np.asarray(B, dtype=float), np.asarray(C, dtype=float)
        for i, e in enumerate(self.estimators):
            if e is None:
                continue
            coeffs = [A[i, j] for j in range(self.m) if self._free(0, i, j)]
            coeffs += [B[i, j] for j in range(self.n) if self._free(1, i, j)]
            if self._free(2, i, None):
                coeffs.append(C[i])
            e.setPrior(coeffs, priorWeight)

    def _free(self, k, i, j):
        p = self.coeffPattern[k]
        if p is None:
            return True
        return (p[i] if j is None else p[i][j]) is None

    def getModel(self):
        """The estimated (A, B, C) as numpy arrays."""
        m, n = self.m, self.n
        A, B, C = np.zeros((m, m)), np.zeros((m, n)), np.zeros(m)
        for i, e in enumerate(self.estimators):
            coeffs = list(e.x) if e is not None else []
            k = 0
            for j in range(m):
                if self._free(0, i, j):
                    A[i, j] = coeffs[k]
                    k += 1
                else:
                    A[i, j] = self.coeffPattern[0][i][j]
            for j in range(n):
                if self._free(1, i, j):
                    B[i, j] = coeffs[k]
                    k += 1
                else:
                    B[i, j] = self.coeffPattern[1][i][j]
            C[i] = coeffs[k] if self._free(2, i, None) else self.coeffPattern[2][i]
        return (A, B, C)

    def getOutput(self, x, u):
        """The prediction A x + B u + C, as a list."""
        A, B, C = self.getModel()
        return (A.dot(np.asarray(x, dtype=float)) + B.dot(np.asarray(u, dtype=float)) + C).tolist()

    def _updateEstimatorSize(self, i):
        nfree = (sum(1 for j in range(self.m) if self._free(0, i, j))
                 + sum(1 for j in range(self.n) if self._free(1, i, j))
                 + (1 if self._free(2, i, None) else 0))
        self.estimators[i] = OnlineLeastSquares(nfree) if nfree > 0 else None

    def _toEstimator(self, i, x, u):
        """(the free regressors, the fixed part) of row i at (x, u)."""
        xuc, offset = [], 0.0
        for j in range(self.m):
            if self._free(0, i, j):
                xuc.append(x[j])
            else:
                offset += x[j] * self.coeffPattern[0][i][j]
        for j in range(self.n):
            if self._free(1, i, j):
                xuc.append(u[j])
            else:
                offset += u[j] * self.coeffPattern[1][i][j]
        if self._free(2, i, None):
            xuc.append(1.0)
        else:
            offset += self.coeffPattern[2][i]
        return xuc, offset
