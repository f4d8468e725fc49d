"""Golf: four face-down cards per seat, swap them for low ones, knock when you think you are lowest.

Options: {"seats": 2..8 (default 4), "decks": 1 or 2 (default `suggested_decks`:
2 from 6 seats up), "dealer": seat that deals the first round (default the
last seat, so seat 0 starts), "names": [one string per seat] (optional)}.
Other keys are ignored.

A game is nine rounds. Each round: deal 4 face-down cards per seat (positions
0, 1 top row, 2, 3 bottom row), turn the next card up as the discard pile, the
rest is the stock. The dealer moves on by one seat each round; the seat after
the dealer starts; play goes on in seat order.

Phases of a round and the actions (one grammar for people and computers):
    peek   every seat looks at its bottom two cards once, then says "ready"
           (all seats at the same time; each seat not yet ready is in to_move)
    turn   the seat on turn, at the start of its turn:
             "draw"     take the top stock card (only this seat sees it), then
                        "swap P"   put it face down at position P (0..3); the
                                   card that was there goes face up on the discard pile
                        "discard"  put the drawn card on the discard pile
             "take P"   take the top discard and put it face down at P; the card
                        that was there goes face up on the discard pile
             "knock"    end the turn without drawing (not after someone knocked)
After a knock every other seat has exactly one more turn, then the round ends.
A round without a knock ends after TURN_LIMIT turns per seat, with no penalty.
An empty stock is refilled by shuffling the discard pile except its top card.

Points: Ace 1, 2..10 face value, Jack and Queen 10, King 0. The knocker pays 10
extra unless no seat has strictly fewer points. Lowest total after nine rounds
wins; equal lowest totals share the win (and then nobody gets the game-night
point).

Knowledge (what the view tells a seat about its own face-down cards):
`view["known"][p]` is the card at position p if the seat has seen it (its bottom
two at the deal, every card it put there itself), else None. This is the seat's
memory: the UI shows these values only with the "memory aid" setting (off by
default), except during the peek phase, where `view["peek"]` lists the
positions to show face up until the seat says "ready". `view["public"][s][p]`
is a card everybody saw going to seat s position p (taken from the discard
pile); again a memory, for the UI to show or not. Other seats' hidden cards, a
card another seat has drawn and the stock order are never in a view.
`view["last_round"]` reveals the finished round: every grid face up with the
round points.
"""

from spieleabend.games.common import (BadOptions, IllegalAction, MalformedAction, Rng, card_rank, check_cards,
                                      check_flags, check_numbers, check_seat, check_table, french_deck, game_outcome,
                                      is_seat, is_whole, need, no_seat_text, seat_names)

NAME = "Golf"
# The game's facts, declared once (see spieleabend.games): everything generic reads them.
INFO = {
    "name": NAME,
    "seats": {"min": 2, "max": 8, "default": 4},
    # Two decks are suggested from six seats up (suggested_decks); None follows the suggestion.
    "options": [{"key": "decks", "default": None, "choices": [1, 2], "label": ("Kartendecks", "Decks"),
                 "labels": {1: ("Ein Deck (52 Karten)", "One deck (52 cards)"),
                            2: ("Zwei Decks (104 Karten)", "Two decks (104 cards)")}}],
    "secret_choices": False,
    "lower_wins": True,
    "joins_between_deals": False,
    "round": "round",
    "version": 1,  # of the rules as records replay them: raise it when a record would replay otherwise
}
MIN_SEATS = INFO["seats"]["min"]
MAX_SEATS = INFO["seats"]["max"]
ROUNDS = 9
CARDS_PER_SEAT = 4
BOTTOM_ROW = [2, 3]
TURN_LIMIT = 20            # turns per seat in a round nobody knocks
KNOCK_PENALTY = 10
VALUES = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
          "J": 10, "Q": 10, "K": 0}
POSITIONS = [0, 1, 2, 3]


def card_value(card):
    """Return the points of one card: Ace 1, 2..10 face value, Jack and Queen 10, King 0."""
    return VALUES[card_rank(card)]


def hand_points(cards):
    """Return the points of a seat's four cards."""
    total = 0
    for card in cards:
        total += VALUES[card[:-1]]
    return total


def suggested_decks(seats):
    """Return the number of decks the rules suggest for a table: two from six seats up."""
    return 2 if seats >= 6 else 1


def suggested_options(seats):
    """Return the options a table of `seats` gets for those left at None (the setup screen shows them)."""
    return {"decks": suggested_decks(seats)}


def knock_penalties(points, knocker):
    """Return the extra points per seat: 10 for the knocker unless no seat has strictly fewer points."""
    extra = [0] * len(points)
    if knocker is not None and min(points) < points[knocker]:
        extra[knocker] = KNOCK_PENALTY
    return extra


def new_game(options, rng):
    """Return a new game with the first round dealt; raise BadOptions for options the rules forbid."""
    options = options or {}
    if not isinstance(options, dict):
        raise BadOptions("options must be a dict")
    seats = options.get("seats", INFO["seats"]["default"])
    if not is_whole(seats) or seats < MIN_SEATS or seats > MAX_SEATS:
        raise BadOptions("Golf needs 2 to 8 seats, not %r" % (seats,))
    decks = options.get("decks")
    decks = suggested_decks(seats) if decks is None else decks
    if decks not in (1, 2) or not is_whole(decks):
        raise BadOptions("Golf is played with 1 or 2 decks, not %r" % (decks,))
    dealer = options.get("dealer", seats - 1)
    if not is_whole(dealer) or dealer < 0 or dealer >= seats:
        raise BadOptions("the first dealer must be a seat from 0 to %d, not %r" % (seats - 1, dealer))
    names = seat_names(options, seats)
    state = {
        "game": "golf",
        "seats": seats,
        "names": list(names),
        "decks": decks,
        "first_dealer": dealer,
        "results": [],
        "rng": list(rng.state),
    }
    _deal(state)
    return state


def _deal(state):
    """Shuffle and deal the next round: four cards per seat, one card up, the rest as stock."""
    seats = state["seats"]
    rng = Rng(state["rng"])
    deck = french_deck(state["decks"])
    rng.shuffle(deck)
    state["rng"] = rng.state
    dealer = dealer_of_round(state, len(state["results"]) + 1)
    state["grids"] = [deck[4 * seat:4 * seat + 4] for seat in range(seats)]
    stock = deck[4 * seats:]
    state["discard"] = [stock.pop()]
    state["stock"] = stock
    state["known"] = [[False, False, True, True] for _ in range(seats)]
    state["public"] = [[None, None, None, None] for _ in range(seats)]
    state["ready"] = [False] * seats
    state["turn"] = (dealer + 1) % seats
    state["drawn"] = None
    state["knocker"] = None
    state["knock_turn"] = None
    state["turns"] = 0
    state["events"] = []


# What a round's events may say (see apply_action and _refill_stock).
EVENT_ACTIONS = {"swap": True, "discard": True, "take": True, "knock": True, "reshuffle": True}


def check_state(state):
    """Raise ValueError unless `state` is one this engine could have produced (a saved game is checked before
    it opens): the grids, the stock, the discard pile and a drawn card are exactly the game's decks; turn,
    knock and turn count fit the round; each scored round's points, penalty and totals are its grids'."""
    seats = check_table(state, MIN_SEATS, MAX_SEATS)
    decks = state.get("decks")
    need(is_whole(decks) and decks in (1, 2), "decks: %r", decks)
    need(is_seat(state.get("first_dealer"), seats), "first_dealer: no seat")
    results = state.get("results")
    need(isinstance(results, list) and len(results) <= ROUNDS, "results: not a list of at most 9 rounds")
    deck = french_deck(decks)
    valid = {}
    for card in deck:
        valid[card] = True
    previous = [0] * seats
    for number, entry in enumerate(results):
        need(isinstance(entry, dict) and entry.get("round") == number + 1
             and entry.get("dealer") == dealer_of_round(state, number + 1), "results: round %d", number + 1)
        grids = entry.get("grids")
        need(isinstance(grids, list) and len(grids) == seats, "results: grids of round %d", number + 1)
        for grid in grids:
            need(isinstance(grid, list) and len(grid) == CARDS_PER_SEAT, "results: a grid of round %d", number + 1)
            for card in grid:
                if not (isinstance(card, str) and card in valid):  # no need() call a card: this runs in Brython
                    raise ValueError("results: %r is no card" % (card,))
        knocker = entry.get("knocker")
        need(knocker is None or is_seat(knocker, seats), "results: knocker of round %d", number + 1)
        points = [hand_points(grid) for grid in grids]
        penalty = knock_penalties(points, knocker)
        scores = [points[s] + penalty[s] for s in range(seats)]
        totals = entry.get("totals")
        check_numbers(totals, seats, 0, None, "results: totals")
        need(entry.get("points") == points and entry.get("penalty") == penalty and entry.get("scores") == scores
             and totals == [previous[s] + scores[s] for s in range(seats)]
             and entry.get("ended_by") == ("limit" if knocker is None else "knock"),
             "results: points of round %d are not its grids'", number + 1)
        previous = totals
    grids = state.get("grids")
    stock = state.get("stock")
    discard = state.get("discard")
    drawn = state.get("drawn")
    need(isinstance(grids, list) and len(grids) == seats, "grids: not one a seat")
    for grid in grids:
        need(isinstance(grid, list) and len(grid) == CARDS_PER_SEAT, "grids: not four cards")
    need(isinstance(discard, list) and discard, "discard: empty")
    check_cards(grids + [stock, discard, [] if drawn is None else [drawn]], deck)
    over = len(results) >= ROUNDS
    known = state.get("known")
    public = state.get("public")
    need(isinstance(known, list) and len(known) == seats and isinstance(public, list) and len(public) == seats,
         "known, public: not one a seat")
    for seat in range(seats):
        check_flags(known[seat], CARDS_PER_SEAT, "known")
        need(known[seat][2] and known[seat][3], "known: the bottom row is known from the deal")
        row = public[seat]
        need(isinstance(row, list) and len(row) == CARDS_PER_SEAT, "public: not four places")
        for position in POSITIONS:
            card = row[position]
            if not (card is None or card == grids[seat][position] and known[seat][position]):
                raise ValueError("public: a card that is not there")
    ready = state.get("ready")
    check_flags(ready, seats, "ready")
    turns = state.get("turns")
    knocker = state.get("knocker")
    knock_turn = state.get("knock_turn")
    need(is_whole(turns) and 0 <= turns <= TURN_LIMIT * seats, "turns: %r", turns)
    need(is_seat(state.get("turn"), seats), "turn: no seat")
    need(knocker is None and knock_turn is None or is_seat(knocker, seats) and is_whole(knock_turn)
         and 0 <= knock_turn < turns, "knocker, knock_turn: not this round's")
    events = state.get("events")
    need(isinstance(events, list), "events: not a list")
    moves = 0
    for event in events:
        need(isinstance(event, dict) and isinstance(event.get("action"), str) and event["action"] in EVENT_ACTIONS,
             "events: %r", event)
        if event["action"] == "reshuffle":
            need(event.get("seat") is None and is_whole(event.get("cards")), "events: a reshuffle")
            continue
        moves += 1
        need(is_seat(event.get("seat"), seats) and (event["action"] in ("discard", "knock")
                                                     or is_whole(event.get("position")) and 0 <= event["position"] <= 3),
             "events: %r", event)
    if over:
        return
    need(moves == turns, "events: not one a turn")
    need(turns_left(state) > 0, "turns: the round is over but not scored")
    if not all(ready):
        need(turns == 0 and drawn is None and knocker is None, "ready: a seat still looking while the round runs")
    need(drawn is None or (isinstance(drawn, str) and all(ready)), "drawn: a card drawn before the round runs")


def dealer_of_round(state, round_number):
    """Return the dealer of a round (1-based): the first dealer, then one seat on per round."""
    return (state["first_dealer"] + round_number - 1) % state["seats"]


def is_over(state):
    """Return True once all nine rounds are scored."""
    return len(state["results"]) >= ROUNDS


def phase(state):
    """Return "peek", "turn" or "over"."""
    if is_over(state):
        return "over"
    if not all(state["ready"]):
        return "peek"
    return "turn"


def to_move(state):
    """Return the seats that may act now: every seat still peeking, else the seat on turn."""
    current = phase(state)
    if current == "over":
        return []
    if current == "peek":
        return [seat for seat in range(state["seats"]) if not state["ready"][seat]]
    return [state["turn"]]


def legal_actions(state, seat):
    """Return the actions a seat may take now (see the module docstring for the grammar)."""
    if not is_seat(seat, state["seats"]):
        return []
    current = phase(state)
    if current == "peek":
        return [] if state["ready"][seat] else ["ready"]
    if current == "over" or seat != state["turn"]:
        return []
    if state["drawn"] is not None:
        return ["swap %d" % p for p in POSITIONS] + ["discard"]
    actions = []
    if state["stock"] or len(state["discard"]) > 1:
        actions.append("draw")
    if state["discard"]:
        actions.extend("take %d" % p for p in POSITIONS)
    if state["knocker"] is None:
        actions.append("knock")
    return actions


def _why_illegal(state, seat, action):
    """Return a clear message why an action is not allowed now."""
    if not is_seat(seat, state["seats"]):
        return no_seat_text(seat)
    if not isinstance(action, str):
        return "an action is a string like 'draw' or 'swap 2', not %r" % (action,)
    current = phase(state)
    if current == "over":
        return "the game is over"
    if current == "peek":
        if state["ready"][seat]:
            return "seat %d is ready; the others are still looking at their cards" % seat
        return "first look at your bottom two cards and say 'ready', not %r" % action
    if seat != state["turn"]:
        return "it is seat %d's turn, not seat %d's" % (state["turn"], seat)
    if action == "knock" and state["knocker"] is not None:
        return "seat %d has already knocked; nobody else may knock" % state["knocker"]
    if state["drawn"] is not None:
        return "after drawing, 'swap 0'..'swap 3' or 'discard', not %r" % action
    if action.startswith("swap") or action == "discard":
        return "draw first, then swap or discard"
    return "unknown action %r (expected 'draw', 'take 0'..'take 3' or 'knock')" % action


_POSITION_WORDS = {str(position): position for position in POSITIONS}


def parse_action(action):
    """Return (verb, position or None) of an action text; raise MalformedAction for anything else."""
    if not isinstance(action, str):
        raise MalformedAction("an action is a string such as 'draw' or 'swap 2', not %r" % (action,))
    if action in ("ready", "draw", "discard", "knock"):
        return action, None
    words = action.split(" ") if isinstance(action, str) else []
    if len(words) != 2 or words[0] not in ("swap", "take") or words[1] not in _POSITION_WORDS:
        raise MalformedAction("unknown action %r: 'ready', 'draw', 'swap 0'..'swap 3', 'discard', "
                              "'take 0'..'take 3' or 'knock'" % (action,))
    return words[0], _POSITION_WORDS[words[1]]


def apply_action(state, seat, action):
    """Apply one legal action; raise MalformedAction or IllegalAction (changing nothing) for anything else."""
    parse_action(action)
    if action not in legal_actions(state, seat):
        raise IllegalAction(_why_illegal(state, seat, action))
    if action == "ready":
        state["ready"][seat] = True
        return
    if action == "draw":
        if not state["stock"]:
            _refill_stock(state)
        state["drawn"] = state["stock"].pop()
        return
    parts = action.split()
    verb = parts[0]
    if verb == "swap":
        position = int(parts[1])
        old = state["grids"][seat][position]
        card = state["drawn"]
        state["grids"][seat][position] = card
        state["known"][seat][position] = True
        state["public"][seat][position] = None
        state["discard"].append(old)
        state["drawn"] = None
        state["events"].append({"seat": seat, "action": "swap", "position": position, "out": old})
    elif verb == "discard":
        card = state["drawn"]
        state["discard"].append(card)
        state["drawn"] = None
        state["events"].append({"seat": seat, "action": "discard", "card": card})
    elif verb == "take":
        position = int(parts[1])
        card = state["discard"].pop()
        old = state["grids"][seat][position]
        state["grids"][seat][position] = card
        state["known"][seat][position] = True
        state["public"][seat][position] = card
        state["discard"].append(old)
        state["events"].append({"seat": seat, "action": "take", "position": position,
                                "card": card, "out": old})
    else:  # knock
        state["knocker"] = seat
        state["knock_turn"] = state["turns"]
        state["events"].append({"seat": seat, "action": "knock"})
    _end_turn(state)


def _refill_stock(state):
    """Shuffle the discard pile except its top card into a new stock."""
    rng = Rng(state["rng"])
    stock = state["discard"][:-1]
    rng.shuffle(stock)
    state["rng"] = rng.state
    state["stock"] = stock
    state["discard"] = state["discard"][-1:]
    state["events"].append({"seat": None, "action": "reshuffle", "cards": len(stock)})


def turns_left(state):
    """Return how many turns the round still has at most (knock's last turns or the turn limit)."""
    if state["knocker"] is not None:
        return state["knock_turn"] + state["seats"] - state["turns"]
    return TURN_LIMIT * state["seats"] - state["turns"]


def _end_turn(state):
    """Count the turn; end the round after the knock's last turns or at the turn limit."""
    state["turns"] += 1
    if turns_left(state) <= 0:
        _score_round(state)
        if not is_over(state):
            _deal(state)
        return
    state["turn"] = (state["turn"] + 1) % state["seats"]


def _score_round(state):
    """Reveal every grid and record the round's points, the knock penalty and the totals."""
    points = [hand_points(grid) for grid in state["grids"]]
    extra = knock_penalties(points, state["knocker"])
    scores = [points[s] + extra[s] for s in range(state["seats"])]
    previous = state["results"][-1]["totals"] if state["results"] else [0] * state["seats"]
    number = len(state["results"]) + 1
    state["results"].append({
        "round": number,
        "dealer": dealer_of_round(state, number),
        "grids": [list(grid) for grid in state["grids"]],
        "points": points,
        "penalty": extra,
        "scores": scores,
        "knocker": state["knocker"],
        "ended_by": "limit" if state["knocker"] is None else "knock",
        "totals": [previous[s] + scores[s] for s in range(state["seats"])],
    })
    state["drawn"] = None


def totals(state):
    """Return each seat's total points so far."""
    if not state["results"]:
        return [0] * state["seats"]
    return list(state["results"][-1]["totals"])


def progress(view):
    """Return the round to show on "Fortsetzen", rounds scored and the totals, from the public view."""
    return {"round": view["round"], "done": len(view["history"]), "scores": list(view["totals"])}


def outcome(state):
    """Return None while running, else the winners (lowest total), totals and the night point."""
    if not is_over(state):
        return None
    scores = totals(state)
    return game_outcome(scores, [-score for score in scores], lower_wins=True,
                        rounds=[result["scores"] for result in state["results"]])


def view(state, seat):
    """Return what a seat (or the table, seat None) may see; never a hidden card of someone else."""
    seats = state["seats"]
    check_seat(seat, seats, table=True)
    own = seat is not None
    current = phase(state)
    over = current == "over"
    round_number = len(state["results"]) + (0 if over else 1)
    result = {
        "game": "golf",
        "seat": seat,
        "seats": seats,
        "names": list(state["names"]),
        "decks": state["decks"],
        "round": round_number,
        "rounds_total": ROUNDS,
        "dealer": dealer_of_round(state, round_number),
        "phase": current,
        "ready": list(state["ready"]),
        "turn": None if current != "turn" else state["turn"],
        "to_move": to_move(state),
        "legal": legal_actions(state, seat),
        "stock_count": 0 if over else len(state["stock"]),
        "discard_top": None if over else state["discard"][-1],
        "discard_count": 0 if over else len(state["discard"]),
        # Every card in the pile landed face up in front of everyone, so the pile is public.
        "discard": [] if over else list(state["discard"]),
        "drawing": None if over or state["drawn"] is None else state["turn"],
        "knocker": None if over else state["knocker"],
        "turns": 0 if over else state["turns"],
        "turns_left": 0 if over else turns_left(state),
        "turn_limit": TURN_LIMIT * seats,
        "public": [] if over else [list(row) for row in state["public"]],
        "events": [] if over else [dict(event) for event in state["events"]],
        "totals": totals(state),
        "last_round": _copy_result(state["results"][-1]) if state["results"] else None,
        "history": [result_entry["scores"] for result_entry in state["results"]],
        "outcome": outcome(state),
    }
    if own:
        holding = not over and state["drawn"] is not None and state["turn"] == seat
        result["drawn"] = state["drawn"] if holding else None
        if over:
            result["known"] = [None, None, None, None]
        else:
            grid = state["grids"][seat]
            knows = state["known"][seat]
            result["known"] = [grid[p] if knows[p] else None for p in POSITIONS]
        result["peek"] = list(BOTTOM_ROW) if current == "peek" and not state["ready"][seat] else []
    return result


def _copy_result(entry):
    copied = dict(entry)
    for key in ("grids",):
        copied[key] = [list(row) for row in entry[key]]
    for key in ("points", "penalty", "scores", "totals"):
        copied[key] = list(entry[key])
    return copied


def replay_cards(state, seat):
    """Return every seat's cards for a replay of the finished game, and the table's middle.

    {"hands": [[card or None per card] per seat], "middle": [cards], "middle_roles": ["discard", "drawn"]}: all
    open for seat None, else only what `seat` could see then (None for a card it could not).
    """
    if phase(state) == "over":
        grids = [list(row) for row in state["results"][-1]["grids"]]
        return {"hands": grids, "middle": [], "columns": 2}
    if seat is None:
        hands = [list(row) for row in state["grids"]]
    else:
        mine = view(state, seat)
        hands = [mine["known"] if other == seat else list(mine["public"][other]) for other in range(state["seats"])]
    middle = state["discard"][-1:]
    roles = ["discard"] * len(middle)
    if state["drawn"] is not None and (seat is None or seat == state["turn"]):
        middle = middle + [state["drawn"]]
        roles.append("drawn")
    return {"hands": hands, "middle": middle, "middle_roles": roles, "columns": 2}  # two rows of two, as the table lays them
