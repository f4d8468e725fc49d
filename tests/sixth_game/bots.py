"""Computers for Höchste Karte: there is only one thing to do."""


def choose(view, rng):
    """Draw (the only legal action)."""
    return view["legal"][0]


STRENGTHS = {"random": choose}
