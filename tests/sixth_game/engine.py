"""Höchste Karte: each seat in turn draws one card from a shuffled deck; the highest rank wins, ties share.

Three rounds; a round's highest card scores its rank (Ace high: 14) for each seat that drew it.
Action grammar: "draw" (the only action). The drawn cards are face up, so a view hides only the stock.
"""

from spieleabend.games.common import (BadOptions, IllegalAction, MalformedAction, Rng, check_seat, french_deck,
                                      game_outcome, seat_names)

NAME = "Höchste Karte"
INFO = {
    "name": NAME,
    "seats": {"min": 2, "max": 6, "default": 3},
    "options": [{"key": "rounds", "default": 3, "choices": [1, 3, 5], "label": ("Runden", "Rounds")}],
    "secret_choices": False,
    "lower_wins": False,
    "joins_between_deals": False,
    "round": "round",
    "version": 1,
}
RANK_VALUE = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "J": 11, "Q": 12, "K": 13,
              "A": 14}


def new_game(options, rng):
    """Return a new game: a shuffled deck, nobody has drawn."""
    options = options or {}
    seats = options.get("seats", INFO["seats"]["default"])
    rounds = options.get("rounds", INFO["options"][0]["default"])
    if not isinstance(seats, int) or not INFO["seats"]["min"] <= seats <= INFO["seats"]["max"]:
        raise BadOptions("Höchste Karte needs 2 to 6 seats, not %r" % (seats,))
    if rounds not in INFO["options"][0]["choices"]:
        raise BadOptions("rounds must be one of %r" % (INFO["options"][0]["choices"],))
    stock = french_deck(1)
    rng.shuffle(stock)
    return {"game": "hoechste", "seats": seats, "names": seat_names(options, seats), "rounds": rounds,
            "stock": stock, "drawn": [None] * seats, "log": [], "rng": list(rng.state)}


def _over(state):
    return len(state["log"]) >= state["rounds"]


def to_move(state):
    """Return the next seat that has not drawn this round; [] once the game is over."""
    if _over(state):
        return []
    return [state["drawn"].index(None)]


def legal_actions(state, seat):
    return ["draw"] if seat in to_move(state) else []


def parse_action(action):
    """Return the action; raise MalformedAction for anything but "draw"."""
    if action != "draw":
        raise MalformedAction("unknown action %r: the only action is 'draw'" % (action,))
    return action


def apply_action(state, seat, action):
    """Draw a card; score the round once every seat has drawn."""
    parse_action(action)
    check_seat(seat, state["seats"])
    if action not in legal_actions(state, seat):
        raise IllegalAction("it is not seat %r's turn to draw" % (seat,))
    state["drawn"][seat] = state["stock"].pop()
    if None not in state["drawn"]:
        values = [RANK_VALUE[card[:-1]] for card in state["drawn"]]
        top = max(values)
        state["log"].append({"cards": list(state["drawn"]),
                             "points": [top if value == top else 0 for value in values]})
        state["drawn"] = [None] * state["seats"]


def totals(state_or_view):
    return [sum([entry["points"][seat] for entry in state_or_view["log"]]) for seat in range(state_or_view["seats"])]


def view(state, seat):
    """Return what a seat (or the table, seat None) sees: every drawn card, never the stock."""
    check_seat(seat, state["seats"], table=True)
    return {"game": "hoechste", "seat": seat, "seats": state["seats"], "names": list(state["names"]),
            "round": min(len(state["log"]) + 1, state["rounds"]), "rounds": state["rounds"],
            "drawn": list(state["drawn"]), "log": [dict(entry) for entry in state["log"]],
            "totals": totals(state), "stock_left": len(state["stock"]), "to_move": to_move(state),
            "outcome": outcome(state), "legal": legal_actions(state, seat) if seat is not None else []}


def progress(view):
    return {"round": view["round"], "done": len(view["log"]), "scores": list(view["totals"])}


def outcome(state):
    if not _over(state):
        return None
    scores = totals(state)
    return game_outcome(scores, scores)
