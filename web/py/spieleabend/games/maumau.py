"""Mau-Mau for 2 to 5 seats with two French decks (104 cards), played over deals until one seat is left.

Actions (short strings) of the seat to move:

    "play <card>"          put a fitting card on the discard pile, e.g. "play 10H"
    "play <jack>:<suit>"   a Jack fits on anything and names the suit to follow, e.g. "play JC:H"
    "<play> mau"           say Mau with it, e.g. "play 7H mau", "play JS:D mau"; required when the
                           card is the second-to-last in hand (forgotten: that seat draws 2 at once);
                           offered only then
    "draw"                 draw one card and end the turn; with an open obligation from 7s it
                           accepts the obligation instead: draw all of it, turn ends
    "next"                 between deals: any seat still in the game starts the next deal

Between deals the room may change: `add_seat(state, name)` (only between deals) and
`remove_seat(state, seat)` (any time while the game runs; the seat leaves the table and
the score list, so higher seat numbers move down by one). `start_next_deal(state)` is the
same as the action "next".

Options: {"seats": 2..5 (default 3), "limit": minus-point limit (default 100), "names": [str]}.
A seat whose minus points exceed the limit is out; the game is over when one seat is left.
`outcome` gives {"winners": [seat], "scores": minus points per seat (lower is better),
"minus": same, "out": [bool per seat]}.
"""

from spieleabend.games.common import (
    BadOptions, IllegalAction, MalformedAction, Rng, SUITS, check_cards, check_flags, check_numbers, check_seat,
    check_table, copy_data, french_deck, game_outcome, is_seat, is_whole, need, no_seat_text, seat_names,
)

NAME = "Mau-Mau"
# The game's facts, declared once (see spieleabend.games): everything generic reads them.
INFO = {
    "name": NAME,
    "seats": {"min": 2, "max": 5, "default": 3},
    "options": [{"key": "limit", "default": 100, "choices": [30, 50, 100, 150, 200],
                 "label": ("Grenze für Minuspunkte", "Minus-point limit")}],
    "secret_choices": False,
    "lower_wins": True,  # scores are minus points
    # Seats join and leave between deals: between_deals(state), add_seat, remove_seat.
    "joins_between_deals": True,
    "round": "deal",
    "version": 1,  # of the rules as records replay them: raise it when a record would replay otherwise
}
MIN_SEATS = INFO["seats"]["min"]
MAX_SEATS = INFO["seats"]["max"]
DEFAULT_SEATS = INFO["seats"]["default"]
DEFAULT_LIMIT = INFO["options"][0]["default"]
HAND_SIZE = 7
LOG_LENGTH = 24
ACTION_RANKS = {"7": True, "8": True, "9": True, "J": True, "A": True}
CARD_POINTS = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
               "J": 20, "Q": 10, "K": 10, "A": 11}
SUIT_SET = {"S": True, "H": True, "D": True, "C": True}
DECK = french_deck(2)
DECK_SET = {card: True for card in DECK}


def card_points(card):
    """Return the minus points of one card left in hand."""
    return CARD_POINTS[card[:-1]]


def hand_points(hand):
    """Return the minus points of a hand."""
    total = 0
    for card in hand:
        total += CARD_POINTS[card[:-1]]
    return total


# ---------------------------------------------------------------- new game

def new_game(options, rng):
    """Return the state of a new game with its first deal dealt; raise BadOptions for bad options."""
    options = options or {}
    seats = options.get("seats", DEFAULT_SEATS)
    limit = options.get("limit", DEFAULT_LIMIT)
    if not isinstance(seats, int) or isinstance(seats, bool) or seats < MIN_SEATS or seats > MAX_SEATS:
        raise BadOptions("Mau-Mau needs 2 to 5 seats, not %r" % (seats,))
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise BadOptions("the minus-point limit must be a positive whole number, not %r" % (limit,))
    names = seat_names(options, seats)
    state = {
        "game": "maumau",
        "seats": seats,
        "limit": limit,
        "names": list(names),
        "hands": [[] for _ in range(seats)],
        "stock": [],
        "discard": [],
        "wish": None,
        "pending": 0,
        "direction": 1,
        "turn": 0,
        "again": False,
        "minus": [0] * seats,
        "out": [False] * seats,
        "phase": "play",
        "deal": 1,
        "starter": 0,
        "log": [],
        "last_deal": None,
        "rng": rng.fork().state,
    }
    _deal(state)
    return state


def _deal(state):
    """Shuffle both decks, give 7 cards to every seat still in, turn up the opening card."""
    rng = Rng(state["rng"])
    deck = french_deck(2)
    rng.shuffle(deck)
    state["rng"] = rng.state
    hands = state["hands"]
    out = state["out"]
    for seat in range(len(hands)):
        hands[seat] = []
    for _ in range(HAND_SIZE):
        for seat in range(len(hands)):
            if not out[seat]:
                hands[seat].append(deck.pop())
    # The opening card must be a plain card: action cards turned up stay underneath.
    discard = [deck.pop()]
    while deck and discard[-1][:-1] in ACTION_RANKS:
        discard.append(deck.pop())
    state["stock"] = deck
    state["discard"] = discard
    state["wish"] = None
    state["pending"] = 0
    state["direction"] = 1
    state["again"] = False
    state["turn"] = state["starter"]
    state["phase"] = "play"
    _log(state, {"type": "deal", "deal": state["deal"], "starter": state["starter"],
                 "top": discard[-1], "turned": discard[:-1]})


# ---------------------------------------------------------------- a saved state

# The logged events' types, each with its keys that name a seat or a card (a seat may be None: it left).
EVENT_TYPES = {"deal": ["top"], "reshuffle": [], "draw": ["top"], "play": ["card"], "forgot_mau": [], "skip": [],
               "reverse": [], "deal_end": [], "out": [], "join": [], "leave": []}
# The seat each event names, which the table reads (None once that seat has left).
EVENT_SEATS = {"play": "seat", "draw": "seat", "forgot_mau": "seat", "skip": "seat", "out": "seat",
               "deal": "starter", "deal_end": "winner"}


def check_state(state):
    """Raise ValueError unless `state` is one this engine could have produced (a saved game is checked before
    it opens): the hands, the stock and the discard pile are exactly the two decks; whose turn, the suit named,
    an open 7 and the seats out fit the table; the events say what the table and its computers read."""
    seats = check_table(state, 1, MAX_SEATS)
    hands = state.get("hands")
    need(isinstance(hands, list) and len(hands) == seats, "hands: not one a seat")
    limit = state.get("limit")
    need(is_whole(limit) and limit >= 1, "limit: %r", limit)
    minus = state.get("minus")
    out = state.get("out")
    check_numbers(minus, seats, 0, None, "minus")
    check_flags(out, seats, "out")
    for seat in range(seats):
        need(out[seat] == (minus[seat] > limit), "out: seat %d is out exactly when above the limit", seat)
    stock = state.get("stock")
    discard = state.get("discard")
    need(isinstance(discard, list) and discard, "discard: empty")
    check_cards(hands + [stock, discard], DECK)
    phase = state.get("phase")
    need(phase == "play" or phase == "between", "phase: %r", phase)
    need(is_whole(state.get("deal")) and state["deal"] >= 1, "deal: %r", state.get("deal"))
    need(state.get("direction") == 1 or state.get("direction") == -1, "direction: %r", state.get("direction"))
    need(is_whole(state["direction"]), "direction: %r", state["direction"])
    need(is_seat(state.get("starter"), seats), "starter: no seat")
    need(is_whole(state.get("turn")), "turn: %r", state.get("turn"))
    top = discard[-1]
    wish = state.get("wish")
    pending = state.get("pending")
    again = state.get("again")
    need(wish is None or _is_suit(wish) and top[:-1] == "J", "wish: no suit named by a Jack on top")
    need(is_whole(pending) and 0 <= pending <= 16 and pending % 2 == 0 and (not pending or top[:-1] == "7"
                                                                             and phase == "play"),
         "pending: no 7s on top to draw for")
    need(again is False or again is True and top[:-1] == "A" and phase == "play", "again: no Ace on top")
    over = seats - len([flag for flag in out if flag]) <= 1
    if phase == "play":
        need(top[:-1] != "J" or wish is not None, "wish: a Jack on top names no suit")
        for seat in range(seats):
            # Out seats get no cards; a seat that emptied its hand ended the deal.
            need(bool(hands[seat]) != out[seat] or over, "hands: seat %d's hand does not fit the deal", seat)
        need(over or is_seat(state["turn"], seats) and not out[state["turn"]], "turn: no seat in the game")
    log = state.get("log")
    need(isinstance(log, list) and len(log) <= LOG_LENGTH, "log: not a list of at most %d events", LOG_LENGTH)
    for event in log + ([] if state.get("last_deal") is None else [state["last_deal"]]):
        need(_event_fits(event, seats), "log: %r", event)
    last = state.get("last_deal")
    need(last is None or last["type"] == "deal_end" and len(last["points"]) == seats, "last_deal: not one a seat")


def _is_suit(value):
    return isinstance(value, str) and value in SUIT_SET


def _is_card(value):
    return isinstance(value, str) and value in DECK_SET


def _event_fits(event, seats):
    """Return whether a logged event has what the table and the computers read of it (one answer an event,
    not a check a key: this runs at every Fortsetzen, in Brython)."""
    if not (isinstance(event, dict) and isinstance(event.get("type"), str) and event["type"] in EVENT_TYPES):
        return False
    kind = event["type"]
    if kind in EVENT_SEATS and EVENT_SEATS[kind] not in event:
        return False
    for key in ("seat", "winner", "starter"):
        if key in event and not (event[key] is None or is_seat(event[key], seats)):
            return False
    for key in EVENT_TYPES[kind]:
        if not _is_card(event.get(key)):
            return False
    if kind == "draw":
        return (event.get("obligation") in (True, False) and _is_suit(event.get("suit"))
                and is_whole(event.get("count")) and is_whole(event.get("wanted")))
    if kind == "play":
        return event.get("mau") in (True, False) and ("suit" not in event or _is_suit(event["suit"]))
    if kind == "deal":
        turned = event.get("turned")
        return (is_whole(event.get("deal")) and isinstance(turned, list)
                and len([card for card in turned if _is_card(card)]) == len(turned))
    if kind == "deal_end":
        points = event.get("points")
        totals = event.get("totals")
        return (isinstance(points, list) and isinstance(totals, list) and len(points) == len(totals)
                and len([n for n in points + totals if is_whole(n)]) == 2 * len(points))
    if kind in ("reshuffle", "forgot_mau"):
        return is_whole(event.get("count"))
    if kind == "reverse":
        return event.get("direction") in (1, -1)
    if kind in ("join", "leave"):
        return isinstance(event.get("name"), str)
    return True


# ---------------------------------------------------------------- helpers

def _log(state, event):
    """Append a public event and keep only the last few."""
    log = state["log"]
    log.append(event)
    if len(log) > LOG_LENGTH:
        del log[0]


def active_seats(state):
    """Return the seats still in the game (not above the limit)."""
    out = state["out"]
    return [seat for seat in range(len(out)) if not out[seat]]


def step_seat(state, seat, direction):
    """Return the next seat still in the game from `seat` in `direction` (a view works too: it reads "out")."""
    out = state["out"]
    count = len(out)
    for _ in range(count):
        seat += direction
        if seat >= count:
            seat = 0
        elif seat < 0:
            seat = count - 1
        if not out[seat]:
            return seat
    return seat


def next_seat(state, seat):
    """Return the seat that plays after `seat` in the current direction."""
    return step_seat(state, seat, state["direction"])


def _draw(state, seat, count):
    """Draw up to `count` cards for a seat, reshuffling when the stock runs out; return how many."""
    hand = state["hands"][seat]
    drawn = 0
    while drawn < count:
        if not state["stock"]:
            if len(state["discard"]) <= 1:
                break  # every other card is in some hand: draw what exists
            _reshuffle(state)
        hand.append(state["stock"].pop())
        drawn += 1
    return drawn


def _reshuffle(state):
    """Shuffle the discard pile except its top card into a new stock."""
    discard = state["discard"]
    rest = discard[:-1]
    rng = Rng(state["rng"])
    rng.shuffle(rest)
    state["rng"] = rng.state
    state["stock"] = rest + state["stock"]
    state["discard"] = [discard[-1]]
    _log(state, {"type": "reshuffle", "count": len(rest)})


def follow_suit(state):
    """Return the suit to follow: the named suit after a Jack, else the top card's suit."""
    return state["wish"] or state["discard"][-1][-1]


def game_over(state):
    """Return True once at most one seat is left in the game."""
    return len(active_seats(state)) <= 1


# ---------------------------------------------------------------- verbs

def to_move(state):
    """Return the seats that may act now: the seat to move, every seat still in between deals, [] once over."""
    if game_over(state):
        return []
    if state["phase"] == "between":
        return active_seats(state)
    return [state["turn"]]


def legal_actions(state, seat):
    """Return the actions `seat` may take now, in hand order, "draw" last."""
    if not is_whole(seat) or seat < 0 or seat >= len(state["hands"]):
        return []
    if game_over(state):
        return []
    if state["phase"] == "between":
        return [] if state["out"][seat] else ["next"]
    if seat != state["turn"]:
        return []
    hand = state["hands"][seat]
    top = state["discard"][-1]
    pending = state["pending"]
    follow = state["wish"] or top[-1]
    top_rank = top[:-1]
    say_mau = len(hand) == 2
    actions = []
    seen = {}
    for card in hand:
        if card in seen:
            continue
        seen[card] = True
        rank = card[:-1]
        if pending:
            if rank != "7":
                continue
            bases = ["play " + card]
        elif rank == "J":
            bases = ["play " + card + ":" + suit for suit in SUITS]
        elif card[-1] == follow or (rank == top_rank and not state["wish"]):
            bases = ["play " + card]
        else:
            continue
        for base in bases:
            actions.append(base)
            if say_mau:
                actions.append(base + " mau")
    actions.append("draw")
    return actions


def _why_illegal(state, seat, action):
    """Return a clear message why an action is not legal for this seat now."""
    if not isinstance(action, str):
        return "an action must be a string, not %r" % (action,)
    if not is_whole(seat) or seat < 0 or seat >= len(state["hands"]):
        return no_seat_text(seat)
    if game_over(state):
        return "the game is over"
    if state["phase"] == "between":
        if state["out"][seat]:
            return "seat %d is out of the game" % seat
        return "the deal is over: only \"next\" starts the next deal"
    if action == "next":
        return "\"next\" is only possible between deals"
    if seat != state["turn"]:
        return "it is seat %d's turn, not seat %d's" % (state["turn"], seat)
    parts = action.split(" ")
    if len(parts) < 2 or parts[0] != "play" or len(parts) > 3 or (len(parts) == 3 and parts[2] != "mau"):
        return "unknown action %r: use \"play <card>\", \"play <jack>:<suit>\", optionally \" mau\", or \"draw\"" % (action,)
    card, _, suit = parts[1].partition(":")
    hand = state["hands"][seat]
    if card not in hand:
        return "%s is not in the hand of seat %d" % (card, seat)
    rank = card[:-1]
    if state["pending"] and rank != "7":
        return "an obligation to draw %d is open: only a 7 or \"draw\"" % state["pending"]
    if rank == "J":
        if suit not in SUIT_SET:
            return "a Jack must name a suit (S, H, D or C), e.g. \"play %s:H\"" % card
    elif suit:
        return "only a Jack names a suit"
    elif not state["pending"] and card[-1] != follow_suit(state) and (
            state["wish"] or rank != state["discard"][-1][:-1]):
        return "%s does not fit on %s (suit to follow %s)" % (card, state["discard"][-1], follow_suit(state))
    if len(parts) == 3 and len(hand) != 2:
        return "Mau is said only with the second-to-last card"
    return "%r is not legal now" % (action,)


def parse_action(action):
    """Return (verb, card, named suit, says mau) of an action text; raise MalformedAction for other texts."""
    if not isinstance(action, str):
        raise MalformedAction("an action must be a string, not %r" % (action,))
    if action in ("draw", "next"):
        return action, None, None, False
    parts = action.split(" ")
    if len(parts) < 2 or parts[0] != "play" or len(parts) > 3 or (len(parts) == 3 and parts[2] != "mau"):
        raise MalformedAction("unknown action %r: use \"play <card>\", \"play <jack>:<suit>\", optionally "
                              "\" mau\", or \"draw\"" % (action,))
    card, colon, suit = parts[1].partition(":")
    if card[:-1] not in CARD_POINTS or card[-1:] not in SUIT_SET or (colon and suit not in SUIT_SET):
        raise MalformedAction("%r names no card of the deck (e.g. \"play 7H\", \"play JS:H\")" % (action,))
    return "play", card, suit or None, len(parts) == 3


def between_deals(state):
    """Return True between two deals: the moment seats may join or leave (INFO["joins_between_deals"])."""
    return state["phase"] == "between"


def apply_action(state, seat, action):
    """Apply a legal action of `seat`; raise MalformedAction or IllegalAction (state unchanged) otherwise."""
    parse_action(action)
    if action not in legal_actions(state, seat):
        raise IllegalAction(_why_illegal(state, seat, action))
    if action == "next":
        start_next_deal(state)
    elif action == "draw":
        _apply_draw(state, seat)
    else:
        _apply_play(state, seat, action)


def _apply_draw(state, seat):
    """Draw one card, or accept an open obligation; the turn ends either way."""
    pending = state["pending"]
    wanted = pending if pending else 1
    event = {"type": "draw", "seat": seat, "wanted": wanted, "obligation": pending > 0,
             "top": state["discard"][-1], "suit": follow_suit(state)}
    event["count"] = _draw(state, seat, wanted)
    _log(state, event)
    state["pending"] = 0
    state["again"] = False
    state["turn"] = next_seat(state, seat)


def _apply_play(state, seat, action):
    """Play a card with its effect: 7 draw obligation, 8 skip, 9 reverse, Ace again, Jack names a suit."""
    parts = action.split(" ")
    said_mau = len(parts) == 3
    card, _, wish = parts[1].partition(":")
    hand = state["hands"][seat]
    hand.remove(card)
    state["discard"].append(card)
    state["wish"] = wish or None
    state["again"] = False
    rank = card[:-1]
    event = {"type": "play", "seat": seat, "card": card, "mau": said_mau}
    if wish:
        event["suit"] = wish
    _log(state, event)
    if not hand:
        if rank == "7":
            # Going out with a 7 still makes the next seat draw what is open.
            victim = next_seat(state, seat)
            wanted = state["pending"] + 2
            drawn = _draw(state, victim, wanted)
            _log(state, {"type": "draw", "seat": victim, "wanted": wanted, "count": drawn,
                         "obligation": True, "top": card, "suit": card[-1]})
        state["pending"] = 0
        _end_deal(state, seat)
        return
    if len(hand) == 1 and not said_mau:
        drawn = _draw(state, seat, 2)
        _log(state, {"type": "forgot_mau", "seat": seat, "count": drawn})
    if rank == "7":
        state["pending"] += 2
        state["turn"] = next_seat(state, seat)
    elif rank == "8":
        skipped = next_seat(state, seat)
        _log(state, {"type": "skip", "seat": skipped})
        state["turn"] = next_seat(state, skipped)
    elif rank == "9":
        state["direction"] = -state["direction"]
        _log(state, {"type": "reverse", "direction": state["direction"]})
        state["turn"] = next_seat(state, seat)
    elif rank == "A":
        state["again"] = True
        state["turn"] = seat
    else:
        state["turn"] = next_seat(state, seat)


def _end_deal(state, winner):
    """Score the deal: every other seat still in adds the points of its hand; above the limit is out."""
    points = [0] * len(state["hands"])
    for seat in active_seats(state):
        if seat != winner:
            points[seat] = hand_points(state["hands"][seat])
            state["minus"][seat] += points[seat]
    result = {"type": "deal_end", "deal": state["deal"], "winner": winner, "points": points,
              "totals": list(state["minus"])}
    state["last_deal"] = copy_data(result)
    _log(state, result)
    for seat in active_seats(state):
        if state["minus"][seat] > state["limit"]:
            state["out"][seat] = True
            _log(state, {"type": "out", "seat": seat, "minus": state["minus"][seat]})
    state["phase"] = "between"
    state["again"] = False


# ---------------------------------------------------------------- between deals

def start_next_deal(state):
    """Deal the next deal; the seat after the previous starter (still in) starts. Only between deals."""
    if game_over(state):
        raise IllegalAction("the game is over")
    if state["phase"] != "between":
        raise IllegalAction("the deal is still running")
    state["deal"] += 1
    state["starter"] = _step_up(state, state["starter"])
    _deal(state)


def _step_up(state, seat):
    """Return the next seat still in the game after `seat` in seat order."""
    out = state["out"]
    count = len(out)
    for _ in range(count + 1):
        seat += 1
        if seat >= count:
            seat = 0
        if not out[seat]:
            return seat
    return 0


def add_seat(state, name):
    """Seat a new player between deals with the minus points of the worst seat still in; return its seat."""
    if game_over(state):
        raise IllegalAction("the game is over")
    if state["phase"] != "between":
        raise IllegalAction("new seats may join only between deals")
    if len(state["hands"]) >= MAX_SEATS:
        raise IllegalAction("the table is full (%d seats)" % MAX_SEATS)
    if not isinstance(name, str):
        raise IllegalAction("a seat's name must be a string")
    worst = 0
    for seat in active_seats(state):
        worst = max(worst, state["minus"][seat])
    state["names"].append(name)
    state["hands"].append([])
    state["minus"].append(worst)
    state["out"].append(False)
    state["seats"] = len(state["hands"])
    seat = state["seats"] - 1
    if state["last_deal"] is not None:
        state["last_deal"]["points"].append(0)
        state["last_deal"]["totals"].append(worst)
    _log(state, {"type": "join", "seat": seat, "name": name, "minus": worst})
    return seat


def remove_seat(state, seat):
    """Remove a seat from the table and the score list, between deals or mid-deal; higher seats move down."""
    if game_over(state):
        raise IllegalAction("the game is over")
    check_seat(seat, len(state["hands"]))
    name = state["names"][seat]
    if state["phase"] == "play" and state["turn"] == seat:
        # Its turn passes on; an open draw obligation goes to the seat that now follows.
        state["again"] = False
        state["turn"] = next_seat(state, seat)
    hand = state["hands"][seat]
    if hand:
        # Its cards go back into the stock, shuffled, so all 104 cards stay in play.
        stock = state["stock"] + hand
        rng = Rng(state["rng"])
        rng.shuffle(stock)
        state["rng"] = rng.state
        state["stock"] = stock
    for key in ("names", "hands", "minus", "out"):
        del state[key][seat]
    state["seats"] = len(state["hands"])
    if state["turn"] > seat:
        state["turn"] -= 1
    if state["starter"] > seat:
        state["starter"] -= 1
    elif state["starter"] == seat:
        # The seat before it counts as the last starter, so the seat after it starts next.
        state["starter"] = seat - 1 if seat > 0 else len(state["hands"]) - 1
    for event in state["log"]:
        _renumber(event, seat, name)
    if state["last_deal"] is not None:
        _renumber(state["last_deal"], seat, name)
    _log(state, {"type": "leave", "name": name})


def _renumber(event, removed, name):
    """Shift the seat numbers in a logged event after `removed` left; its own mentions become None, with its
    `name` kept beside ("left_seat"...): the log still says who played what before they left."""
    for key in ("seat", "winner", "starter"):
        value = event.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            if value == removed:
                event[key] = None
                event["left_" + key] = name
            elif value > removed:
                event[key] = value - 1
    for key in ("points", "totals"):
        if key in event and removed < len(event[key]):
            del event[key][removed]


# ---------------------------------------------------------------- view and outcome

def view(state, seat):
    """Return what `seat` may see (seat None: the table): never another hand or the stock order."""
    check_seat(seat, len(state["hands"]), table=True)
    own = seat is not None
    over = game_over(state)
    return {
        "game": "maumau",
        "seat": seat,
        "seats": state["seats"],
        "names": list(state["names"]),
        "hand": list(state["hands"][seat]) if own else None,
        "top": state["discard"][-1],
        "suit": follow_suit(state),
        "wish": state["wish"],
        "pending": state["pending"],
        "direction": state["direction"],
        "turn": None if over or state["phase"] != "play" else state["turn"],
        "again": state["again"],
        "phase": "over" if over else state["phase"],
        "deal": state["deal"],
        "starter": state["starter"],
        "hand_sizes": [len(hand) for hand in state["hands"]],
        "stock": len(state["stock"]),
        "discard": len(state["discard"]),
        "minus": list(state["minus"]),
        "out": list(state["out"]),
        "limit": state["limit"],
        "events": [_copy_event(event) for event in state["log"]],
        "last_deal": None if state["last_deal"] is None else _copy_event(state["last_deal"]),
        "to_move": to_move(state),
        "outcome": outcome(state),
        "legal": legal_actions(state, seat) if own else [],
    }


def _copy_event(event):
    """Copy a flat event (its values are str, int, bool, None or lists of those)."""
    copy = dict(event)
    for key in ("turned", "points", "totals"):
        if key in copy:
            copy[key] = list(copy[key])
    return copy


def progress(view):
    """Return the deal to show on "Fortsetzen", deals finished and the minus points, from the public view."""
    done = view["deal"] - 1 if view["phase"] == "play" else view["deal"]
    return {"round": view["deal"], "done": done, "scores": list(view["minus"])}


def outcome(state):
    """Return None while more than one seat is in the game, else the last seat in wins; then fewer minus points."""
    if not game_over(state):
        return None
    minus = list(state["minus"])
    keys = [[0 if state["out"][seat] else 1, -minus[seat]] for seat in range(len(minus))]
    return game_outcome(minus, keys, lower_wins=True, minus=list(minus), out=list(state["out"]))


def replay_cards(state, seat):
    """Return every seat's cards for a replay of the finished game, and the table's middle.

    {"hands": [[card or None per card] per seat], "middle": [cards]}: all open for seat None,
    else only what `seat` could see then (None for a card it could not).
    """
    hands = [list(hand) if seat is None or other == seat else [None] * len(hand)
             for other, hand in enumerate(state["hands"])]
    middle = state["discard"][-1:]
    return {"hands": hands, "middle": middle, "middle_roles": ["discard"] * len(middle)}
