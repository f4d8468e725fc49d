"""Serve the app shell (placeholder until the foundation lands)."""


def init_app(app):
    """Register the routes that serve the app."""
