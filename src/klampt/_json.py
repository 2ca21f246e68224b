"""Reading JSON from files users give: the standard parser, with a document
nested too deeply to parse (which Python reports as a RecursionError) refused
as invalid input with the source named."""
import json


def loads(text, source='JSON text'):
    """Parses a JSON string; ValueError names ``source`` when it is invalid or
    nested too deeply."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("%s is nested too deeply to be read as JSON" % source) from None


def load(f, source=None):
    """Parses the JSON content of an open text file (see :func:`loads`)."""
    return loads(f.read(), source or getattr(f, 'name', 'JSON file'))
