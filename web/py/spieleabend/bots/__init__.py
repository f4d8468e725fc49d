"""Computer players: one module per game, each `STRENGTHS = {name: choose(view, rng) -> action}`."""
