"""The reference's deprecated aliases: a function under an old (camel-case)
name that warns with a DeprecationWarning and calls its new name."""
import functools
import warnings


def deprecated_alias(old_name, new, new_name, module):
    """A function named ``old_name`` of ``module`` (its ``__module__``) that
    warns and calls ``new`` (named ``new_name`` in the message and the
    docstring, which points to it); ``__wrapped__`` is ``new``, which the
    stubs type it as."""
    @functools.wraps(new)
    def alias(*args, **kwargs):
        warnings.warn("%s is deprecated: use %s" % (old_name, new_name), DeprecationWarning, stacklevel=2)
        return new(*args, **kwargs)
    alias.__name__ = alias.__qualname__ = old_name
    alias.__module__ = module
    alias.__doc__ = "Deprecated: use :func:`%s`." % new_name
    return alias
