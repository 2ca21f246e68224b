"""Not available: the reference's ``klampt.plan.robotoptimize`` builds on
``klampt.math.symbolic``, which fails to import on Python 3.10 and later
(``inspect.getargspec`` was removed), and this package does not include it."""
raise ImportError("klampt.plan.robotoptimize is not available: it needs klampt.math.symbolic, which this package "
                  "does not provide (the reference's fails to import on Python >= 3.10)")
