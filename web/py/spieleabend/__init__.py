"""Spieleabend: a card-game evening in the browser."""
