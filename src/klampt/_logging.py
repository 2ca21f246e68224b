"""``set_log_level``: how much this package logs."""
import logging

#: The reference's level names (its C++ logger's), with Python's names too.
_LEVELS = {"DEBUG": logging.DEBUG, "INFO": logging.INFO, "WARN": logging.WARNING, "WARNING": logging.WARNING,
           "ERROR": logging.ERROR, "FATAL": logging.CRITICAL, "CRITICAL": logging.CRITICAL}


def set_log_level(level: str) -> None:
    """Sets the level of the ``klampt`` logger, under which every module of the
    package logs: "DEBUG", "INFO", "WARN", "ERROR" or "FATAL" (any case;
    "WARNING" and "CRITICAL" too). Messages below the level are dropped.
    File loaders' warnings go through Python's :mod:`warnings` instead."""
    if not isinstance(level, str):
        raise TypeError("set_log_level takes a level name (str), got %r" % (level,))
    try:
        value = _LEVELS[level.upper()]
    except KeyError:
        raise ValueError("unknown log level %r: use one of DEBUG, INFO, WARN, ERROR, FATAL" % level) from None
    logging.getLogger("klampt").setLevel(value)
