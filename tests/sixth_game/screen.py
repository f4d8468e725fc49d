"""The table of Höchste Karte: the only screen code a game brings (the contract does the rest)."""

from spieleabend.ui.html import button, escape
from spieleabend.ui.shell import Screen, page
from spieleabend.ui.final import final_standings

GAME = "hoechste"


class TableScreen(Screen):
    """The drawn cards, the totals and a "draw" button for this device's seat (any table)."""

    def __init__(self, app, table):
        self.table = table
        table.listen(lambda _event: app.rerender())

    def render(self, app):
        view = self.table.view()
        if view is None:
            return page("Höchste Karte", "")
        if view["outcome"] is not None:  # the shared final standings, from the engine's outcome
            return page("Höchste Karte", final_standings(self.table, view["names"], view["outcome"]))
        cards = "".join('<li data-seat="%d">%s</li>' % (seat, escape(card or "–")) for seat, card in enumerate(view["drawn"]))
        draw = button("Ziehen", "draw", "draw", kind="primary") if "draw" in view["legal"] else ""
        return page("Höchste Karte", '<ul data-testid="drawn">%s</ul>%s' % (cards, draw))

    def handle(self, app, action, value):
        if action == "draw":
            self.table.act("draw")

    def leave(self, app):
        self.table.close()
