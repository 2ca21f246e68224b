"""The widgets of the JSON GUI (``vis.addButton``, ``addCheckbox``,
``addSelect``, ``addInput``) as the dicts the windows and web viewers show:
built and checked here, with the reference's presentation options (icon,
style) kept as the reference keeps them (the panels drawn here do not show
them)."""


def _style(widget, icon=None, iconformat=None, style=None):
    for key, value in (('icon', icon), ('iconformat', iconformat), ('style', style)):
        if value is not None:
            widget[key] = value
    return widget


def button(text, id=None, icon=None, iconformat=None, style=None):
    """A button's dict (its id is ``text`` unless given)."""
    return _style({'type': 'button', 'text': text, 'id': id or text}, icon, iconformat, style)


def checkbox(text, state, id=None, icon=None, iconformat=None, style=None):
    """A checkbox's dict, its state a bool."""
    return _style({'type': 'checkbox', 'text': text, 'state': bool(state), 'id': id or text}, icon, iconformat,
                  style)


def select(text, options, chosen, id=None, multiple=False, style=None):
    """A selection's dict: ``chosen`` is an option (a list of them when
    ``multiple``), by default the first option (none when ``multiple``).
    ValueError for a selection that is not an option."""
    options = list(options)
    if multiple:
        chosen = [] if chosen is None else ([chosen] if isinstance(chosen, str) else list(chosen))
        unknown = [c for c in chosen if c not in options]
    else:
        if isinstance(chosen, (list, tuple)):
            if len(chosen) > 1:
                raise ValueError("addSelect: one selection without multiple=True, got %r" % (chosen,))
            chosen = chosen[0] if chosen else None
        if chosen is None:
            chosen = options[0] if options else None
        unknown = [] if chosen is None or chosen in options else [chosen]
    if unknown:
        raise ValueError("addSelect: %r not among the options %r" % (unknown, options))
    return _style({'type': 'select', 'text': text, 'options': options, 'state': chosen,
                   'multiple': bool(multiple), 'id': id or text}, style=style)


def input_field(text, value, id=None, min=None, max=None, style=None):
    """A text (str value) or number (int / float value) input's dict; a
    number input keeps its state within ``min`` and ``max`` when given and
    steps by 1 for an int (any for a float). ValueError for bounds on a
    text input."""
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    widget = {'type': 'number' if number else 'text', 'text': text, 'state': value, 'id': id or text}
    if number:
        widget['step'] = 1 if isinstance(value, int) else 'any'
        if min is not None:
            widget['min'] = min
        if max is not None:
            widget['max'] = max
    elif min is not None or max is not None:
        raise ValueError("addInput: min and max are for number inputs")
    return _style(widget, style=style)
