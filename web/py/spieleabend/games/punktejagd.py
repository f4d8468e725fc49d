"""Punktejagd: ten rounds of secretly chosen number cards; unique numbers score.

Every seat holds the cards 1 to 10 and plays one per round. All seats choose at
the same time: each seat is to move until it has committed this round, and the
round is scored the moment the last seat commits. Round types: 7 "normal",
2 "kopfstand" and 1 "gold", shuffled per game. One risk chip per seat per game.

Action grammar (one string):
    "play N"        commit card N (1..10, from the seat's hand)
    "play N risk"   commit card N and spend the seat's risk chip on it

View (`view(state, seat)`): "seat", "seats", "names", "round" (1..10, None when
over), "round_count", "round_type", "next_round_type" (None in the last round),
"totals", "committed" (per seat: plan confirmed, content hidden), "chips_spent"
(per seat, as revealed by scored rounds), "played" (per seat the cards of the
scored rounds), "log" (scored rounds: {"round", "type", "cards", "risks",
"points"}; the last entry is the latest reveal), "outcome", "legal"; for a
seat also "hand" (without a confirmed card), "chip_spent" and "plan" (its own
confirmed {"card", "risk"} or None). The table view (seat None) has no hand.

Scoring (see `score_round`): the numbers played by exactly one seat are unique.
The best position is the highest unique number (normal, gold) or the lowest
(kopfstand); the second position is the next one in that order. Best 5, second
3, every other seat the base value 1; gold doubles these (10, 6, 2). A single
unique number is best and gets 5 (gold 10). Risk: best position adds 3 (never
doubled), any other outcome scores 0.
"""

from spieleabend.games.common import (BadOptions, IllegalAction, MalformedAction, check_cards, check_flags,
                                      check_numbers, check_secret_hands, check_table, game_outcome, is_seat, is_whole,
                                      need, no_seat_text, seat_names, secret_round_cards)

NAME = "Punktejagd"
# The game's facts, declared once (see spieleabend.games): everything generic reads them.
INFO = {
    "name": NAME,
    "seats": {"min": 2, "max": 6, "default": 4},
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
DEFAULT_SEATS = INFO["seats"]["default"]
SECRET_CHOICES = INFO["secret_choices"]

CARDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
ROUND_COUNT = 10
ROUND_TYPES = ["normal", "kopfstand", "gold"]
# Seven normal rounds, two Kopfstand rounds and one Gold round per game.
ROUND_MIX = ["normal"] * 7 + ["kopfstand"] * 2 + ["gold"]
RISK_BONUS = 3
# Points per round type: (best, second, base).
POINTS = {"normal": (5, 3, 1), "kopfstand": (5, 3, 1), "gold": (10, 6, 2)}
# The card strings of the grammar, so "play 07" or "play +7" are rejected.
_CARD_WORDS = {str(card): card for card in CARDS}


def ranked_unique(cards, round_type):
    """Return the numbers played exactly once, best first (highest; lowest in a Kopfstand round)."""
    counts = {}
    for card in cards:
        counts[card] = counts[card] + 1 if card in counts else 1  # dict.get is slow in Brython
    unique = sorted([card for card in counts if counts[card] == 1])  # a list, not a generator: cheaper in Brython
    if round_type != "kopfstand":
        unique.reverse()
    return unique


def score_round(cards, round_type, risks):
    """Return the points of one round per seat, from the cards and risk flags in seat order."""
    if round_type not in POINTS:
        raise ValueError("unknown round type: %r" % (round_type,))
    if len(cards) != len(risks):
        raise ValueError("cards and risks must have one entry per seat")
    best_points, second_points, base_points = POINTS[round_type]
    unique = ranked_unique(cards, round_type)
    best = unique[0] if unique else None
    second = unique[1] if len(unique) > 1 else None
    points = []
    for seat in range(len(cards)):  # not zip: check_state scores every logged round again, in Brython
        card = cards[seat]
        risk = risks[seat]
        if card == best:
            points.append(best_points + RISK_BONUS if risk else best_points)
        elif risk:
            points.append(0)
        elif card == second:
            points.append(second_points)
        else:
            points.append(base_points)
    return points


def new_game(options, rng):
    """Return a fresh game for options {"seats": 2..6, "names": [...] optional}."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise BadOptions("options must be a dict")
    seats = options.get("seats", DEFAULT_SEATS)
    if not isinstance(seats, int) or isinstance(seats, bool) or seats < MIN_SEATS or seats > MAX_SEATS:
        raise BadOptions("Punktejagd needs %d to %d seats, not %r" % (MIN_SEATS, MAX_SEATS, seats))
    names = seat_names(options, seats)
    round_types = list(ROUND_MIX)
    rng.shuffle(round_types)
    return {
        "game": "punktejagd",
        "seats": seats,
        "names": names,
        "round_types": round_types,
        "hands": [list(CARDS) for _ in range(seats)],
        "chip_spent": [False] * seats,
        "plans": [None] * seats,
        "totals": [0] * seats,
        "log": [],
        "rng": list(rng.state),
    }


def check_state(state):
    """Raise ValueError unless `state` is one this engine could have produced (a saved game is checked before
    it opens): every seat's cards 1 to 10 are in its hand or in the scored rounds, once each; the log's points
    and the totals agree; a plan is a card of the hand."""
    seats = check_table(state, MIN_SEATS, MAX_SEATS)
    round_types = state.get("round_types")
    check_cards([round_types], ROUND_MIX, "round_types")
    hands = state.get("hands")
    plans = state.get("plans")
    chips = state.get("chip_spent")
    check_flags(chips, seats, "chip_spent")
    need(isinstance(hands, list) and len(hands) == seats, "hands: not one a seat")
    need(isinstance(plans, list) and len(plans) == seats, "plans: not one a seat")
    check_numbers(state.get("totals"), seats, 0, None, "totals")
    log = state.get("log")
    need(isinstance(log, list) and len(log) <= ROUND_COUNT, "log: not a list of at most 10 rounds")
    used = [[] for _ in range(seats)]
    totals = [0] * seats
    risked = [False] * seats
    for number, entry in enumerate(log):
        need(isinstance(entry, dict) and entry.get("round") == number + 1 and entry.get("type") == round_types[number],
             "log: round %d is not the round played", number + 1)
        cards = entry.get("cards")
        risks = entry.get("risks")
        check_numbers(cards, seats, 1, 10, "log: cards")
        check_flags(risks, seats, "log: risks")
        need(entry.get("points") == score_round(cards, entry["type"], risks), "log: points of round %d", number + 1)
        for seat in range(seats):
            used[seat].append(cards[seat])
            totals[seat] += entry["points"][seat]
            if risks[seat] and risked[seat]:
                raise ValueError("log: a second risk chip of seat %d" % seat)
            risked[seat] = risked[seat] or risks[seat]
    need(state["totals"] == totals, "totals: not the sum of the scored rounds")
    need(chips == risked, "chip_spent: not as the scored rounds spent them")
    over = len(log) >= ROUND_COUNT
    check_secret_hands(hands, used, CARDS)
    for seat in range(seats):
        hand = hands[seat]
        plan = plans[seat]
        if plan is not None:
            need(not over and isinstance(plan, dict) and len(plan) == 2 and plan.get("card") in hand
                 and is_whole(plan["card"]) and (plan.get("risk") is True or plan.get("risk") is False)
                 and not (plan["risk"] and chips[seat]),
                 "plans: seat %d's plan is no card of its hand", seat)
    # All seats committed would have scored the round: nobody would be left to move.
    need(over or None in plans, "plans: every seat committed but the round is not scored")


def _is_over(state):
    """Return whether all ten rounds have been scored."""
    return len(state["log"]) >= ROUND_COUNT


def to_move(state):
    """Return the seats that have not committed a card this round; [] once the game is over."""
    if _is_over(state):
        return []
    return [seat for seat in range(state["seats"]) if state["plans"][seat] is None]


def legal_actions(state, seat):
    """Return the actions this seat may take now (empty when it has committed or the game is over)."""
    if not is_seat(seat, state["seats"]) or _is_over(state) or state["plans"][seat] is not None:
        return []
    actions = []
    chip_free = not state["chip_spent"][seat]
    for card in sorted(state["hands"][seat]):
        actions.append("play %d" % card)
        if chip_free:
            actions.append("play %d risk" % card)
    return actions


def parse_action(action):
    """Return (card, risk) of an action text; raise MalformedAction for anything but "play N [risk]"."""
    if not isinstance(action, str):
        raise MalformedAction("an action must be a string like 'play 7' or 'play 7 risk'")
    words = action.split(" ")
    if len(words) not in (2, 3) or words[0] != "play" or words[1] not in _CARD_WORDS:
        raise MalformedAction("malformed action %r: expected 'play N' or 'play N risk' with N from 1 to 10" % (action,))
    if len(words) == 3 and words[2] != "risk":
        raise MalformedAction("malformed action %r: the only word after the card is 'risk'" % (action,))
    return _CARD_WORDS[words[1]], len(words) == 3



def pending_view(view, action):
    """Show a committed, not yet revealed choice in its owner's view (rooms: the engine has not seen it)."""
    try:
        card, risk = parse_action(action)
    except MalformedAction:
        return view
    if view["hand"] is not None and card in view["hand"]:
        view["hand"] = [n for n in view["hand"] if n != card]
    view["plan"] = {"card": card, "risk": risk}
    if risk:
        view["chip_spent"] = True
    if view["seat"] is not None and view["seat"] < len(view["committed"]):
        view["committed"] = list(view["committed"])
        view["committed"][view["seat"]] = True
    return view


def apply_action(state, seat, action):
    """Commit one seat's secret card (and risk); score the round once every seat has committed."""
    if not is_seat(seat, state["seats"]):
        raise IllegalAction(no_seat_text(seat))
    card, risk = parse_action(action)
    if _is_over(state):
        raise IllegalAction("the game is over")
    if state["plans"][seat] is not None:
        raise IllegalAction("seat %d has already committed a card this round" % seat)
    if card not in state["hands"][seat]:
        raise IllegalAction("seat %d does not hold the card %d" % (seat, card))
    if risk and state["chip_spent"][seat]:
        raise IllegalAction("seat %d has already spent its risk chip" % seat)
    state["plans"][seat] = {"card": card, "risk": risk}
    if all(plan is not None for plan in state["plans"]):
        _score_current_round(state)


def _score_current_round(state):
    """Reveal all plans, score them, use up the cards and chips, and log the round."""
    plans = state["plans"]
    round_type = state["round_types"][len(state["log"])]
    cards = [plan["card"] for plan in plans]
    risks = [plan["risk"] for plan in plans]
    points = score_round(cards, round_type, risks)
    for seat in range(state["seats"]):
        state["hands"][seat].remove(cards[seat])
        if risks[seat]:
            state["chip_spent"][seat] = True
        state["totals"][seat] += points[seat]
    state["log"].append({
        "round": len(state["log"]) + 1,
        "type": round_type,
        "cards": cards,
        "risks": risks,
        "points": points,
    })
    state["plans"] = [None] * state["seats"]


def _copy_entry(entry):
    """Return a copy of one round-log entry (cheaper than a generic deep copy)."""
    return {
        "round": entry["round"],
        "type": entry["type"],
        "cards": list(entry["cards"]),
        "risks": list(entry["risks"]),
        "points": list(entry["points"]),
    }


def _public_chips(state):
    """Return per seat whether its chip is spent, as revealed by the scored rounds only."""
    spent = [False] * state["seats"]
    for entry in state["log"]:
        for seat in range(state["seats"]):
            if entry["risks"][seat]:
                spent[seat] = True
    return spent


def view(state, seat):
    """Return what one seat (or the table, seat None) may see; never an unrevealed plan."""
    if seat is not None and not is_seat(seat, state["seats"]):
        raise IllegalAction(no_seat_text(seat))
    log = state["log"]
    played = len(log)
    over = played >= ROUND_COUNT
    round_types = state["round_types"]
    used = [[entry["cards"][s] for entry in log] for s in range(state["seats"])]
    result = {
        "game": "punktejagd",
        "seat": seat,
        "seats": state["seats"],
        "names": list(state["names"]),
        "round": None if over else played + 1,
        "round_count": ROUND_COUNT,
        "round_type": None if over else round_types[played],
        "next_round_type": round_types[played + 1] if played + 1 < ROUND_COUNT else None,
        "totals": list(state["totals"]),
        "committed": [False if over else plan is not None for plan in state["plans"]],
        "chips_spent": _public_chips(state),
        "played": used,
        "log": [_copy_entry(entry) for entry in log],
        "hand": None,
        "chip_spent": None,
        "plan": None,
        "outcome": outcome(state),
        "legal": [],
    }
    if seat is not None:
        plan = state["plans"][seat]
        hand = sorted(state["hands"][seat])
        chip_spent = state["chip_spent"][seat]
        if plan is not None:
            # A confirmed card has left the hand for its owner, and a confirmed chip is spent.
            hand.remove(plan["card"])
            chip_spent = chip_spent or plan["risk"]
            result["plan"] = {"card": plan["card"], "risk": plan["risk"]}
        result["hand"] = hand
        result["chip_spent"] = chip_spent
        result["legal"] = legal_actions(state, seat)
    return result


def progress(view):
    """Return the round to show on "Fortsetzen", rounds scored and the totals, from the public view."""
    return {"round": view["round"] or ROUND_COUNT, "done": len(view["log"]), "scores": list(view["totals"])}


def outcome(state):
    """Return None while rounds remain, else the final totals and the seats sharing the top total."""
    if not _is_over(state):
        return None
    totals = list(state["totals"])
    return game_outcome(totals, totals)


def replay_cards(state, seat):
    """Return every seat's cards for a replay of the finished game, and the table's middle (see
    common.secret_round_cards: a card chosen in secret leaves its hand for the middle at once)."""
    chosen = [plan["card"] if plan is not None else None for plan in state["plans"]]
    return secret_round_cards(state["hands"], chosen, seat, state["log"][-1]["cards"] if state["log"] else [])