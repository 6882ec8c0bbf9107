"""The one error the engine raises."""


class IllegalAction(ValueError):
    """An action, option or summary the rules do not allow.

    ``str(exc)`` is a sentence a player can read, e.g.
    "you must over-trump: you hold the 10 of oros".
    """
