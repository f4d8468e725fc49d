"""Room relay (placeholder until the relay issue lands): registers nothing yet."""


def init_app(app):
    """Attach the relay's websocket routes to the app."""
