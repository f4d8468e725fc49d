"""Höchste Karte: a sixth game that exists only in the tests, to prove the game contract.

An engine, a bot module and a screen module (its table only), registered once with
`register_game`: the shared table, standings, results, saves and rooms then play it
without knowing it. docs/adding-a-game.md walks through it.
"""

ENTRY = {"module": "hoechste", "title": ("Höchste Karte", "High Card"), "suit": "♥",
         "blurb": ("Jede zieht eine Karte, die höchste gewinnt.", "Everyone draws a card, the highest wins."),
         "engine": "tests.sixth_game.engine", "bots": "tests.sixth_game.bots", "screen": "tests.sixth_game.screen"}
