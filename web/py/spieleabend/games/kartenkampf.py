"""Kartenkampf: everyone secretly plays one of the cards 1..10; the highest card played exactly once wins.

Options: {"seats": 2..8 (default 4), "names": [one string per seat] (optional)}.
Other keys are ignored.

Actions (one grammar, one verb): "play N" with N a card the seat still holds.
All seats choose at the same time: every seat that has not committed a card in
the current round is in `to_move`. A committed card is final and stays secret
until the last seat has chosen; then the round is resolved at once.

Round: the highest number played exactly once wins; its player scores the sum
of all cards played (blocked ones included). A round with a winner uses up
every card played in it; a round without any unique number gives every card
back. The game ends after 10 rounds, even if cards remain.

Game winner: most points, then highest single round score, then most rounds
won; still equal -> no winner (`winners == []`) and no game-night point.

`resolve_round(cards)` is pure: `cards[seat]` is the card of that seat; it
returns the list `[winner_seat_or_None, points]` (points 0 without a winner).

State (plain JSON data):
    {"game": "kartenkampf", "seats": n, "names": [str], "hands": [[int]], "choices": [int|None],
     "log": [{"round": k, "played": [int], "winner": seat|None, "points": p}],
     "rng": [4 ints]}
Scores, rounds won and best round are computed from the log, never stored.
"""

from spieleabend.games.common import (BadOptions, IllegalAction, MalformedAction, check_numbers, check_secret_hands,
                                      check_seat, check_table, game_outcome, is_seat, is_whole, need, no_seat_text,
                                      seat_names, secret_round_cards)

NAME = "Kartenkampf"
# The game's facts, declared once (see spieleabend.games): everything generic reads them.
INFO = {
    "name": NAME,
    "seats": {"min": 2, "max": 8, "default": 4},
    "options": [],
    # Every seat chooses at once and in secret: rooms use commit-reveal, computers commit at once.
    "secret_choices": True,
    "lower_wins": False,
    "joins_between_deals": False,
    "round": "round",
    "version": 1,  # of the rules as records replay them: raise it when a record would replay otherwise
}
MIN_SEATS = INFO["seats"]["min"]
MAX_SEATS = INFO["seats"]["max"]
SECRET_CHOICES = INFO["secret_choices"]
ROUNDS = 10
CARDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]


def resolve_round(cards):
    """Return [winner_seat or None, points] for the cards played by seat index in one round."""
    counts = [0] * 12
    for card in cards:
        counts[card] += 1
    for value in range(10, 0, -1):
        if counts[value] == 1:
            return [cards.index(value), sum(cards)]
    return [None, 0]


def new_game(options, rng):
    """Return a fresh game: every seat holds the cards 1 to 10."""
    options = options or {}
    seats = options.get("seats", INFO["seats"]["default"])
    if not isinstance(seats, int) or isinstance(seats, bool) or seats < MIN_SEATS or seats > MAX_SEATS:
        raise BadOptions("Kartenkampf needs 2 to 8 seats, not %r" % (seats,))
    names = seat_names(options, seats)
    return {
        "game": "kartenkampf",
        "seats": seats,
        "names": list(names),
        "hands": [list(CARDS) for _ in range(seats)],
        "choices": [None] * seats,
        "log": [],
        "rng": list(rng.state),
    }


def check_state(state):
    """Raise ValueError unless `state` is one this engine could have produced (a saved game is checked before
    it opens): every seat's cards 1 to 10 are in its hand or spent in a round with a winner, once each; each
    logged round's winner and points are its cards'; a chosen card is a card of the hand."""
    seats = check_table(state, MIN_SEATS, MAX_SEATS)
    hands = state.get("hands")
    choices = state.get("choices")
    need(isinstance(hands, list) and len(hands) == seats, "hands: not one a seat")
    need(isinstance(choices, list) and len(choices) == seats, "choices: not one a seat")
    log = state.get("log")
    need(isinstance(log, list) and len(log) <= ROUNDS, "log: not a list of at most 10 rounds")
    spent = [[] for _ in range(seats)]
    for number, entry in enumerate(log):
        need(isinstance(entry, dict) and entry.get("round") == number + 1, "log: round %d is missing", number + 1)
        played = entry.get("played")
        check_numbers(played, seats, 1, 10, "log: played")
        need([entry.get("winner"), entry.get("points")] == resolve_round(played)
             and (entry["winner"] is None or is_whole(entry["winner"])) and is_whole(entry["points"]),
             "log: winner and points of round %d", number + 1)
        for seat in range(seats):
            # A round without a winner gives its cards back: still, each was in its hand then.
            if played[seat] in spent[seat]:
                raise ValueError("log: seat %d played a spent card" % seat)
            if entry["winner"] is not None:
                spent[seat].append(played[seat])
    over = len(log) >= ROUNDS
    check_secret_hands(hands, spent, CARDS)
    for seat in range(seats):
        hand = hands[seat]
        choice = choices[seat]
        need(choice is None or (not over and is_whole(choice) and choice in hand),
             "choices: seat %d's choice is no card of its hand", seat)
    # All seats chosen would have finished the round: nobody would be left to move.
    need(over or None in choices, "choices: every seat chose but the round is not finished")


def is_over(state):
    """Return True once all ten rounds are resolved."""
    return len(state["log"]) >= ROUNDS


def to_move(state):
    """Return the seats that still have to choose a card this round ([] once the game is over)."""
    if is_over(state):
        return []
    return [seat for seat in range(state["seats"]) if state["choices"][seat] is None]


def legal_actions(state, seat):
    """Return "play N" for every card the seat holds, if it still has to choose."""
    if seat is None or is_over(state) or not is_seat(seat, state["seats"]):
        return []
    if state["choices"][seat] is not None:
        return []
    return ["play %d" % card for card in state["hands"][seat]]


# The card words of the grammar: "play 07", "play +7" or "play ²" are no actions.
_CARD_WORDS = {str(card): card for card in CARDS}


def parse_action(action):
    """Return the card of a "play N" action; raise MalformedAction for any other text."""
    if not isinstance(action, str):
        raise MalformedAction("an action is a string like 'play 7', not %r" % (action,))
    parts = action.split(" ")
    if len(parts) != 2 or parts[0] != "play" or parts[1] not in _CARD_WORDS:
        raise MalformedAction("unknown action %r (expected 'play N' with N from 1 to 10)" % (action,))
    return _CARD_WORDS[parts[1]]



def pending_view(view, action):
    """Show a committed, not yet revealed card in its owner's view (rooms: the engine has not seen it yet)."""
    try:
        view["choice"] = parse_action(action)
    except MalformedAction:
        return view
    if view["seat"] is not None and view["seat"] < len(view["committed"]):
        view["committed"] = list(view["committed"])
        view["committed"][view["seat"]] = True
    return view


def apply_action(state, seat, action):
    """Commit a seat's secret card; resolve the round when the last seat has chosen."""
    if not is_seat(seat, state["seats"]):
        raise IllegalAction(no_seat_text(seat))
    card = parse_action(action)
    if is_over(state):
        raise IllegalAction("the game is over")
    if state["choices"][seat] is not None:
        raise IllegalAction("seat %d has already chosen this round" % seat)
    if card not in state["hands"][seat]:
        raise IllegalAction("seat %d does not hold the card %d" % (seat, card))
    state["choices"][seat] = card
    if None not in state["choices"]:
        _finish_round(state)


def _finish_round(state):
    """Reveal all choices, score the round and use up or return the cards."""
    played = list(state["choices"])
    winner, points = resolve_round(played)
    if winner is not None:
        for seat in range(state["seats"]):
            state["hands"][seat].remove(played[seat])
    state["log"].append({"round": len(state["log"]) + 1, "played": played,
                         "winner": winner, "points": points})
    state["choices"] = [None] * state["seats"]


def tally(state_or_view):
    """Return (scores, rounds_won, best_round) per seat, computed from the round log."""
    seats = state_or_view["seats"]
    scores = [0] * seats
    won = [0] * seats
    best = [0] * seats
    for entry in state_or_view["log"]:
        winner = entry["winner"]
        if winner is not None:
            scores[winner] += entry["points"]
            won[winner] += 1
            if entry["points"] > best[winner]:
                best[winner] = entry["points"]
    return scores, won, best


def rank_key(scores, won, best, seat):
    """Return the comparison key of a seat: points, then best round, then rounds won."""
    return [scores[seat], best[seat], won[seat]]


def progress(view):
    """Return the round to show on "Fortsetzen", rounds finished and the totals, from the public view."""
    return {"round": view["round"], "done": len(view["log"]), "scores": list(view["scores"])}


def outcome(state):
    """Return None while running, else winners, scores, tie-break figures and the night point."""
    if not is_over(state):
        return None
    scores, won, best = tally(state)
    return judge(scores, won, best)


def judge(scores, won, best):
    """Return the outcome of a finished game from its points, rounds won and best round per seat."""
    keys = [rank_key(scores, won, best, seat) for seat in range(len(scores))]
    found = decision(scores, best, won)
    # Level on points, best round and rounds won: nobody wins (RULINGS.md), so nobody has the point.
    return game_outcome(scores, keys, share_ties=False, best_round=best, rounds_won=won,
                        decided_by=found["kind"], tied=found["tied"])


def decision(scores, best, won):
    """Return how a game was decided: {"kind": points|best_round|rounds_won|undecided, "tied": seats}.

    `tied` holds the seats that were level before the deciding figure (for "points" the winner alone,
    for "undecided" the seats level on everything).
    """
    seats = list(range(len(scores)))
    top = max([scores[seat] for seat in seats])
    level = [seat for seat in seats if scores[seat] == top]
    if len(level) == 1:
        return {"kind": "points", "tied": level}
    top_best = max([best[seat] for seat in level])
    level_best = [seat for seat in level if best[seat] == top_best]
    if len(level_best) == 1:
        return {"kind": "best_round", "tied": level}
    top_won = max([won[seat] for seat in level_best])
    level_won = [seat for seat in level_best if won[seat] == top_won]
    if len(level_won) == 1:
        return {"kind": "rounds_won", "tied": level_best}
    return {"kind": "undecided", "tied": level_won}


def tied_values(played):
    """Return the card values played more than once (they block each other), highest first."""
    counts = {}
    for card in played:
        counts[card] = (counts[card] + 1) if card in counts else 1
    return sorted([card for card in counts if counts[card] > 1], reverse=True)


def reveal(entry):
    """Return the reveal of one logged round: cards sorted descending, the winner flagged in place, each
    tied card marked, and the tied values above the winning card (all of them when nobody won)."""
    tied = tied_values(entry["played"])
    cards = [{"seat": seat, "card": card, "winner": seat == entry["winner"], "tied": card in tied}
             for seat, card in enumerate(entry["played"])]
    # Highest card first; equal cards in seat order so the layout is stable.
    cards.sort(key=lambda item: (-item["card"], item["seat"]))
    return {
        "round": entry["round"],
        "cards": cards,
        "winner": entry["winner"],
        "winning_card": None if entry["winner"] is None else entry["played"][entry["winner"]],
        "points": entry["points"],
        "returned": entry["winner"] is None,
        "knocked_out": [card for card in tied if entry["winner"] is None or card > entry["played"][entry["winner"]]],
    }


def view(state, seat):
    """Return what a seat (or the table, seat None) may see: never another seat's unrevealed choice."""
    seats = state["seats"]
    check_seat(seat, seats, table=True)
    scores, won, best = tally(state)
    spent = [[] for _ in range(seats)]
    for entry in state["log"]:
        if entry["winner"] is not None:
            for owner in range(seats):
                spent[owner].append(entry["played"][owner])
    for owner_cards in spent:
        owner_cards.sort()
    result = {
        "game": "kartenkampf",
        "seat": seat,
        "seats": seats,
        "names": list(state["names"]),
        "round": min(len(state["log"]) + 1, ROUNDS),
        "rounds_total": ROUNDS,
        "phase": "over" if is_over(state) else "choose",
        "committed": [choice is not None for choice in state["choices"]],
        "spent": spent,
        "cards_left": [len(hand) for hand in state["hands"]],
        "scores": scores,
        "rounds_won": won,
        "best_round": best,
        "log": [{"round": e["round"], "played": list(e["played"]), "winner": e["winner"],
                 "points": e["points"]} for e in state["log"]],
        "reveal": reveal(state["log"][-1]) if state["log"] else None,
        "to_move": to_move(state),
        "legal": legal_actions(state, seat),
        "outcome": outcome(state),
    }
    if seat is not None and is_seat(seat, state["seats"]):
        result["hand"] = list(state["hands"][seat])
        result["choice"] = state["choices"][seat]
    return result


def replay_cards(state, seat):
    """Return every seat's cards for a replay of the finished game, and the table's middle (see
    common.secret_round_cards: a card chosen in secret leaves its hand for the middle at once)."""
    return secret_round_cards(state["hands"], state["choices"], seat,
                              state["log"][-1]["played"] if state["log"] else [])