"""Shared fixtures: the Flask app and its test client (as in Flask's tutorial)."""

import pytest

from server import create_app


@pytest.fixture(scope="session")
def app():
    """Return the app built from the repository's web/ folder."""
    return create_app({"TESTING": True})


@pytest.fixture()
def client(app):
    """Return a test client of the app."""
    return app.test_client()


@pytest.fixture()
def german():
    """Draw screens in German, and leave the language German for the next test (`usefixtures("german")`)."""
    from spieleabend.ui import i18n

    i18n.set_language("de")
    yield
    i18n.set_language("de")
