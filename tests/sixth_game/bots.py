"""Computers for Höchste Karte: there is only one thing to do, so every level does it."""


def choose(view, rng):
    """Draw (the only legal action)."""
    return view["legal"][0]


def hint(view, rng):
    """Return the Stark choice and why (there is no other)."""
    return choose(view, rng), "Ziehen ist der einzige Zug.", "Drawing is the only move."


STRENGTHS = {"leicht": choose, "mittel": choose, "stark": choose}
STRENGTH_ALIASES = {}
LEVEL_INFO = {level: ("Zieht.", "Draws.") for level in STRENGTHS}
