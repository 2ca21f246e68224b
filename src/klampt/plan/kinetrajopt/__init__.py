"""Not available: the reference's ``klampt.plan.kinetrajopt`` needs ``cvxpy``
and imports ``collections.Iterable``, removed in Python 3.10."""
raise ImportError("klampt.plan.kinetrajopt is not available (the reference's needs cvxpy and fails to import on "
                  "Python >= 3.10)")
