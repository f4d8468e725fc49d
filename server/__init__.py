"""Spieleabend server: serves the app and relays room messages; it never runs a game."""

import os

from flask import Flask


def create_app(test_config=None):
    """Create the Flask app: static app, built bundles and the room relay."""
    app = Flask(__name__, static_folder=None)
    app.config.from_mapping(
        SECRET_KEY="dev",
        WEB_ROOT=None,  # folder with index.html and web/py; None = the repo's web/
        # Rooms in Redis, shared by every process that uses the same URL; None: in memory.
        RELAY_REDIS_URL=os.environ.get("SPIELEABEND_REDIS_URL") or None,
    )
    if test_config:
        app.config.from_mapping(test_config)

    from server import relay, rooms_api, transfer, web

    web.init_app(app)
    relay.init_app(app)
    transfer.init_app(app)
    rooms_api.init_app(app)
    return app
