"""Pao De Kuai ("Cardavia"): three seats race to empty their hands; a table of several deals.

Seats and direction: seats are 0, 1, 2 and play passes from seat s to seat
(s + 1) % 3. The table layout puts seat (s + 1) % 3 to the right of seat s,
so this is the counter-clockwise order the rules ask for.

Action grammar (one spelling: lower-case verbs, cards as the hand writes them, "10D" not "10d";
card order free, cards separated by spaces; anything else is a MalformedAction):
    "play 3H 3S"   play these cards of one's hand as one combination
    "pass"         decline to answer (only when no legal answer exists)
    "next"         after a finished deal: ready for the next deal
    "stop"         after a finished deal: end the table now

`legal_actions` lists one canonical card choice per distinct combination
(shape, top rank, length): suits never rank and settlement looks only at
ranks and at the 2 of spades (the only 2), so two choices of the same
combination differ in nothing but the 3 of hearts, which the canonical
choice always includes in the first play. `apply_action` accepts every
valid card choice.

Shapes reported by `classify`: "single", "pair", "triple", "straight"
(5+ consecutive ranks, 3 to A), "run" (2+ consecutive pairs, 3 to A) and
"bomb" (four of a rank, the three Aces, or the heavenly four 3s).

Options: {"deals": n, "names": [3 strings] (optional), "seats": 3 (optional)}.
"deals" from 1 to 99 (default 5) ends the table after that many deals;
0 keeps it open until a player stops it with "stop" after a deal.

A table is a sequence of deals. When a seat goes out the deal ends at once
and is settled; then every seat that has not yet said "next" is to move
("next" or "stop"). When all three said "next" the cards are shuffled again
and the holder of the 3 of hearts leads (in every deal). `outcome` is None
until the agreed number of deals is played or a seat said "stop"; then the
winners are the seats with the highest table total (ties share the win).

Settlement: a seat that goes out receives from each other seat 1 per card
left (2 per card if that seat never played a card in the deal), plus 10 for
the 2 of spades in hand, plus 10 per whole bomb in hand (four of a rank, or
the three Aces). A bomb that did not lead its trick wins 10 from each other
seat once no higher bomb beat it: when the trick closes, or at once when it
was its player's last cards (before the going-out settlement). Every
settlement is recorded in `state["log"]` and sums to zero; the running table
is the sum of all of them.
"""

from spieleabend.games.common import (BadOptions, IllegalAction, MalformedAction, Rng, SUITS, check_cards,
                                      check_flags, check_names, check_numbers, check_rng, check_seat, game_outcome,
                                      is_seat, is_whole, need, seat_names)

NAME = "Pao De Kuai"
MAX_DEALS = 99
# The game's facts, declared once (see spieleabend.games): everything generic reads them.
INFO = {
    "name": NAME,
    "seats": {"min": 3, "max": 3, "default": 3},
    # 0 deals: an open table, played until somebody stops after a deal.
    "options": [{"key": "deals", "default": 5, "choices": [1, 2, 3, 5, 10, 0], "min": 0, "max": MAX_DEALS,
                 "label": ("Austeilungen", "Deals"), "labels": {0: ("offen", "open")}}],
    "secret_choices": False,
    "lower_wins": False,
    "joins_between_deals": False,
    "round": "deal",
    "version": 1,  # of the rules as records replay them: raise it when a record would replay otherwise
}
MIN_SEATS = MAX_SEATS = SEATS = INFO["seats"]["max"]
DEFAULT_DEALS = INFO["options"][0]["default"]
HAND_SIZE = 16

# Rank values: 3 lowest ... A = 14, 2 = 15 highest; suits never rank.
RANK_VALUE = {"3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
              "J": 11, "Q": 12, "K": 13, "A": 14, "2": 15}
RANK_LABEL = {v: k for k, v in RANK_VALUE.items()}
ACE = 14
TWO = 15
SEQUENCE_TOP = ACE          # straights and runs stop at the Ace: no 2, Ace only high
HEART_THREE = "3H"
SPADE_TWO = "2S"
REMOVED = ["AH", "2H", "2D", "2C"]

# Bomb strengths: four of a rank = its rank value (four 3s lowest = 3),
# the three Aces beat every four-card bomb, the heavenly bomb beats everything.
ACES_BOMB = 14
HEAVENLY_BOMB = 16

BOMB_BONUS = 10             # each other seat pays this to an unbeaten answering bomb
SPADE_TWO_PENALTY = 10
WHOLE_BOMB_PENALTY = 10

# Suit order for display (as in common.SUITS) and for picking canonical cards:
# hearts first, so a canonical choice that contains a 3 contains the 3 of hearts.
SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
PICK_ORDER = {"H": 0, "S": 1, "D": 2, "C": 3}


def _build_deck():
    """Return the 48 cards in a fixed order."""
    deck = []
    for suit in SUITS:
        for label in ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]:
            card = label + suit
            if card not in REMOVED:
                deck.append(card)
    return deck


DECK = _build_deck()
DECK_SET = set(DECK)


def card_value(card):
    """Return the rank value of a card (3 .. 15)."""
    return RANK_VALUE[card[:-1]]


def sort_cards(cards):
    """Return the cards sorted low to high, suits in the fixed display order."""
    return sorted(cards, key=lambda c: (RANK_VALUE[c[:-1]], SUIT_INDEX[c[-1]]))


# ---------------------------------------------------------------- combinations

def _describe(shape, length, rank, bomb):
    """Return the plain description dict of a play."""
    return {"shape": shape, "length": length, "rank": rank, "top": RANK_LABEL[rank],
            "bomb": bomb, "heavenly": bomb == HEAVENLY_BOMB}


def classify(cards, opening=False):
    """Return the description of a play or None if the cards form no legal combination.

    The description is a plain dict: shape, length (number of cards), rank (value
    of the highest rank, 3..15), top (its label), bomb (0 for ordinary shapes,
    else the bomb strength) and heavenly. `opening` says whether this is the very
    first play of the deal, where the four 3s are the heavenly bomb.
    """
    if not isinstance(cards, list) or not cards:
        return None
    seen = set()
    counts = {}
    for card in cards:
        if not isinstance(card, str) or card not in DECK_SET or card in seen:
            return None
        seen.add(card)
        value = RANK_VALUE[card[:-1]]
        # Not counts.get: Brython's dict.get raises internally on a miss, which is slow.
        counts[value] = counts[value] + 1 if value in counts else 1
    n = len(cards)
    ranks = sorted(counts)
    low = ranks[0]
    high = ranks[-1]
    if len(ranks) == 1:
        if n == 1:
            return _describe("single", 1, low, 0)
        if n == 2:
            return _describe("pair", 2, low, 0)
        if n == 3:
            if low == ACE:
                return _describe("bomb", 3, low, ACES_BOMB)
            return _describe("triple", 3, low, 0)
        if low == 3 and opening:
            return _describe("bomb", 4, low, HEAVENLY_BOMB)
        return _describe("bomb", 4, low, low)
    if high > SEQUENCE_TOP or high - low + 1 != len(ranks):
        return None
    per_rank = counts[low]
    for value in ranks:
        if counts[value] != per_rank:
            return None
    if per_rank == 1 and n >= 5:
        return _describe("straight", n, high, 0)
    if per_rank == 2:
        return _describe("run", n, high, 0)
    return None


def beats(play, previous):
    """Return whether `play` is a legal answer to `previous` (descriptions or card lists)."""
    if isinstance(play, list):
        play = classify(play)
    if isinstance(previous, list):
        previous = classify(previous)
    if play is None:
        return False
    if previous is None:
        return True
    if previous["bomb"]:
        return play["bomb"] > previous["bomb"]
    if play["bomb"]:
        return True
    return (play["shape"] == previous["shape"] and play["length"] == previous["length"]
            and play["rank"] > previous["rank"])


def _rank_counts(hand):
    """Return a list of 16 counts of a hand by rank value."""
    counts = [0] * 16
    for card in hand:
        counts[RANK_VALUE[card[:-1]]] += 1
    return counts


def whole_bombs(hand):
    """Return the rank labels of the bombs still whole in a hand (four of a rank, or the three Aces)."""
    counts = _rank_counts(hand)
    found = []
    for value in range(3, 16):
        if counts[value] == 4 or (value == ACE and counts[value] == 3):
            found.append(RANK_LABEL[value])
    return found


def _combinations(counts, opening, previous):
    """Yield (shape, low, high, per_rank) for every distinct combination that may be played now.

    `previous` is the description to beat (None when leading); `opening` limits the
    first play of the deal to combinations that contain a 3 (so the 3 of hearts).
    """
    found = []
    need_bomb = previous is not None and previous["bomb"]
    shape = previous["shape"] if previous is not None else None
    floor = previous["rank"] if previous is not None else 0
    if previous is None or not need_bomb:
        # Groups of one rank: single, pair, triple.
        for size, name in ((1, "single"), (2, "pair"), (3, "triple")):
            if shape is not None and shape != name:
                continue
            for value in range(3, 16):
                if opening and value != 3:
                    break
                if value > floor and counts[value] >= size and not (size == 3 and value == ACE):
                    found.append((name, value, value, size))
        # Sequences: straights (one card per rank, 5+) and runs (two per rank, 2+).
        for per_rank, name, min_len in ((1, "straight", 5), (2, "run", 2)):
            if shape is not None and shape != name:
                continue
            want_len = previous["length"] // per_rank if previous is not None else 0
            for low in range(3, SEQUENCE_TOP + 1):
                if opening and low != 3:
                    break
                high = low
                while high <= SEQUENCE_TOP and counts[high] >= per_rank:
                    length = high - low + 1
                    if length >= min_len and high > floor and (not want_len or length == want_len):
                        found.append((name, low, high, per_rank))
                    high += 1
    # Bombs beat every ordinary shape; a higher bomb beats a lower one.
    bomb_floor = previous["bomb"] if need_bomb else 0
    for value in range(3, 14):
        if opening and value != 3:
            break
        if counts[value] == 4:
            strength = HEAVENLY_BOMB if (opening and value == 3) else value
            if strength > bomb_floor:
                found.append(("bomb", value, value, 4))
    if not opening and counts[ACE] == 3 and ACES_BOMB > bomb_floor:
        found.append(("bomb", ACE, ACE, 3))
    return found


def _pick_cards(hand, low, high, per_rank):
    """Return the canonical cards of a hand for `per_rank` cards of each rank low..high."""
    by_rank = {}
    for card in hand:
        by_rank.setdefault(RANK_VALUE[card[:-1]], []).append(card)
    chosen = []
    for value in range(low, high + 1):
        cards = sorted(by_rank[value], key=lambda c: PICK_ORDER[c[-1]])
        chosen.extend(cards[:per_rank])
    return sort_cards(chosen)


# ---------------------------------------------------------------- game state

def _check_options(options):
    """Return the checked options with defaults; raise BadOptions for what the rules forbid."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise BadOptions("options must be a dict")
    seats = options.get("seats", SEATS)
    if not is_whole(seats) or seats != SEATS:
        raise BadOptions("Pao De Kuai is played by exactly 3 seats")
    deals = options.get("deals", DEFAULT_DEALS)
    if not is_whole(deals) or deals < 0 or deals > MAX_DEALS:
        raise BadOptions("deals must be an int from 0 (open table) to %d" % MAX_DEALS)
    return {"deals": deals}


def _deal(state, rng):
    """Shuffle and deal a fresh hand of 16 to each seat; the 3 of hearts leads."""
    deck = list(DECK)
    rng.shuffle(deck)
    state["hands"] = [sort_cards(deck[i * HAND_SIZE:(i + 1) * HAND_SIZE]) for i in range(SEATS)]
    state["has_played"] = [False] * SEATS
    state["trick"] = []
    state["tricks"] = []
    state["played"] = []
    state["ready"] = []
    for seat in range(SEATS):
        if HEART_THREE in state["hands"][seat]:
            state["turn"] = seat
    state["log"].append({"deal": len(state["log"]) + 1, "settlements": []})
    state["rng"] = list(rng.state)  # a copy: the caller may go on using its generator (a replay deals again without it)


def new_game(options, rng):
    """Return the state of a new table with its first deal dealt."""
    checked = _check_options(options)
    state = {
        "options": checked,
        "names": seat_names(options or {}, SEATS),
        "rng": rng.state,
        "hands": [[], [], []],
        "has_played": [False] * SEATS,
        "turn": 0,
        "trick": [],
        "tricks": [],
        "played": [],
        "log": [],
        "ready": [],
        "stopped_by": None,
    }
    _deal(state, rng)
    return state


def check_state(state):
    """Raise ValueError unless `state` is one this engine could have produced (a saved game is checked before
    it opens): the hands and the deal's plays are exactly the 48 cards; the tricks are the plays in their
    order, each a combination that beat the one before; whose turn and who is ready fit the deal; every
    settlement sums to zero, one going out a deal."""
    need(isinstance(state, dict), "not a game state")
    options = state.get("options")
    need(isinstance(options, dict) and is_whole(options.get("deals")) and 0 <= options["deals"] <= MAX_DEALS,
         "options: deals")
    check_names(state.get("names"), SEATS)
    check_rng(state.get("rng"))
    hands = state.get("hands")
    played = state.get("played")
    need(isinstance(hands, list) and len(hands) == SEATS, "hands: not one a seat")
    check_cards(hands + [played], DECK)
    for hand in hands:
        need(hand == sort_cards(hand), "hands: a hand out of order")
    check_flags(state.get("has_played"), SEATS, "has_played")
    trick = state.get("trick")
    tricks = state.get("tricks")
    need(isinstance(trick, list) and isinstance(tricks, list), "tricks: not lists")
    # The tricks' plays are cards of `played` in their order, the open trick's the last ones; each is a
    # combination. (Not every card played need be in a trick: the e2e tests' prepared deals count cards as
    # played earlier without their tricks.)
    position = 0
    cards_of = [0] * SEATS
    for entries in tricks + [trick]:
        need(isinstance(entries, list) and (entries or entries is trick), "tricks: an empty trick")
        for number, entry in enumerate(entries):
            need(isinstance(entry, dict) and is_seat(entry.get("seat"), SEATS) and isinstance(entry.get("cards"), list),
                 "tricks: a play")
            cards = entry["cards"]
            if not cards:
                need(number > 0, "tricks: a pass that leads")
                continue
            need(cards[0] in played[position:], "tricks: cards that were not played")
            at = played.index(cards[0], position)
            need(played[at:at + len(cards)] == cards, "tricks: cards that were not played")
            need(_described(cards, at == 0) is not None, "tricks: %r is no combination", cards)
            position = at + len(cards)
            cards_of[entry["seat"]] += len(cards)
    need(not [entry for entry in trick if entry["cards"]] or position == len(played),
         "trick: not the last cards played")
    # The open trick is what the next move answers: its plays in seat order, each beating the one before.
    top = None
    for number, entry in enumerate(trick):
        need(number == 0 or entry["seat"] == (trick[number - 1]["seat"] + 1) % SEATS, "trick: a play out of turn")
        if entry["cards"]:
            play = _described(entry["cards"], _is_deal_first(state, entry))
            need(top is None or beats(play, top), "trick: %r does not beat the play before", entry["cards"])
            top = play
    need(len(trick) < 2 or trick[-1]["cards"] or trick[-2]["cards"], "trick: two passes but not closed")
    for seat in range(SEATS):
        need(len(hands[seat]) + cards_of[seat] <= HAND_SIZE and (state["has_played"][seat] or not cards_of[seat]),
             "hands: seat %d holds more cards than it was dealt", seat)
    over = deal_over(state)
    need(len([hand for hand in hands if not hand]) <= 1, "hands: two seats went out")
    need(not (trick and over), "trick: open after the deal")
    log = state.get("log")
    need(isinstance(log, list) and log, "log: no deal")
    deals = options["deals"]
    need(deals == 0 or len(log) <= deals, "log: more deals than agreed")
    for number, record in enumerate(log):
        need(isinstance(record, dict) and record.get("deal") == number + 1 and isinstance(record.get("settlements"), list),
             "log: deal %d", number + 1)
        outs = 0
        for settlement in record["settlements"]:
            need(isinstance(settlement, dict) and is_seat(settlement.get("seat"), SEATS), "log: a settlement")
            check_numbers(settlement.get("points"), SEATS, None, None, "log: a settlement's points")
            need(sum(settlement["points"]) == 0, "log: a settlement that does not sum to zero")
            kind = settlement.get("kind")
            if kind == "out":
                outs += 1
                losers = settlement.get("losers")
                need(isinstance(losers, list), "log: a settlement's losers")
                for loser in losers:
                    need(isinstance(loser, dict) and isinstance(loser.get("bombs"), list), "log: a settlement's losers")
            else:
                need(kind == "bomb" and isinstance(settlement.get("top"), str) and settlement["top"] in RANK_VALUE,
                     "log: a settlement's kind")
        need(outs == (1 if over or number < len(log) - 1 else 0), "log: not one going out a deal")
    ready = state.get("ready")
    check_numbers(ready, None, 0, SEATS - 1, "ready")
    need(len(ready) < SEATS and len(set(ready)) == len(ready) and (over or not ready), "ready: %r", ready)
    stopped = state.get("stopped_by")
    need(stopped is None or over and is_seat(stopped, SEATS), "stopped_by: %r", stopped)
    need(is_seat(state.get("turn"), SEATS), "turn: no seat")
    if not over and trick:
        need(state["turn"] == (trick[-1]["seat"] + 1) % SEATS, "turn: not the seat after the trick's last")
    elif not over and not played:
        need(HEART_THREE in hands[state["turn"]], "turn: not the 3 of hearts' seat at the deal's start")


def deal_over(state):
    """Return whether the current deal has ended (a seat went out)."""
    for hand in state["hands"]:
        if not hand:
            return True
    return False


def finished_deals(state):
    """Return how many deals have ended."""
    return len(state["log"]) if deal_over(state) else len(state["log"]) - 1


def table_totals(state):
    """Return each seat's running total over every settlement of every deal."""
    totals = [0] * SEATS
    for record in state["log"]:
        for settlement in record["settlements"]:
            for seat in range(SEATS):
                totals[seat] += settlement["points"][seat]
    return totals


def deal_points(record):
    """Return the per-seat points of one deal record."""
    points = [0] * SEATS
    for settlement in record["settlements"]:
        for seat in range(SEATS):
            points[seat] += settlement["points"][seat]
    return points


def _game_over(state):
    """Return whether the table has ended (agreed deals played, or stopped after a deal)."""
    if not deal_over(state):
        return False
    if state["stopped_by"] is not None:
        return True
    deals = state["options"]["deals"]
    return deals > 0 and finished_deals(state) >= deals


def to_move(state):
    """Return the seats that may act now: the seat on turn, or the seats not yet ready for the next deal."""
    if _game_over(state):
        return []
    if deal_over(state):
        return [seat for seat in range(SEATS) if seat not in state["ready"]]
    return [state["turn"]]


def _top(state):
    """Return the last play of the current trick (the one to beat) or None when leading."""
    for entry in reversed(state["trick"]):
        if entry["cards"]:
            return entry
    return None


def _opening(state):
    """Return whether the next play is the very first play of the deal."""
    return not state["played"]


def _is_deal_first(state, entry):
    """Return whether a trick entry is the very first play of the deal."""
    # Cards are unique and `played` keeps the order of play, so only the first
    # play's cards can start that list.
    cards = entry["cards"]
    return bool(cards) and state["played"][:len(cards)] == cards


def _top_description(state):
    """Return the description of the play to beat, or None when leading."""
    top = _top(state)
    if top is None:
        return None
    return _described(top["cards"], _is_deal_first(state, top))


def _answers(state, seat):
    """Return the combinations `seat` may play now: (shape, low, high, per_rank) tuples."""
    counts = _rank_counts(state["hands"][seat])
    return _combinations(counts, _opening(state), _top_description(state))


def legal_actions(state, seat):
    """Return the legal actions of a seat: canonical plays, or pass, or next/stop between deals."""
    if not is_whole(seat) or seat not in to_move(state):
        return []
    if deal_over(state):
        return ["next", "stop"]
    hand = state["hands"][seat]
    actions = []
    for shape, low, high, per_rank in _answers(state, seat):
        actions.append("play " + " ".join(_pick_cards(hand, low, high, per_rank)))
    if not actions:
        actions.append("pass")
    return actions


def parse_action(action):
    """Return (verb, cards) of an action text; raise MalformedAction for anything else.

    "play 7H 7S" names the cards themselves (suits never rank, so any cards of a legal combination
    may be played, in any order); "pass", "next" and "stop" take none.
    """
    if not isinstance(action, str):
        raise MalformedAction("an action is a string such as 'play 3H' or 'pass', not %r" % (action,))
    words = action.split(" ")
    verb, cards = words[0], words[1:]
    if verb in ("pass", "next", "stop") and not cards:
        return verb, []
    if verb != "play" or not cards or not all([card in DECK_SET for card in cards]):
        raise MalformedAction("unknown action %r: 'play <cards>' (e.g. 'play 7H 7S'), 'pass', 'next' or 'stop'"
                              % (action,))
    return verb, cards


def check_action(view, action, combinations=None):
    """Return the action as the engine keeps it if the view's seat may take it now (its cards in the engine's
    order); raise MalformedAction or IllegalAction. Reads only the view, so a phone checks before sending.

    The legal list holds one choice of cards per combination; any cards of a listed combination will do.
    `combinations`: legal_combinations(view), for a caller that checks many selections of one view.
    """
    verb, cards = parse_action(action)
    if verb != "play":
        if action not in view["legal"]:
            raise IllegalAction("%r is not allowed now" % (action,))
        return action
    hand = view["hand"] if "hand" in view and view["hand"] else []
    if len(set(cards)) != len(cards) or not all([card in hand for card in cards]):
        raise IllegalAction("%s: not cards of this hand" % " ".join(cards))
    if view["opening"] and HEART_THREE not in cards:
        raise IllegalAction("the first play of the deal must include the 3 of hearts")
    play = classify(cards, view["opening"])
    if combinations is None:
        combinations = legal_combinations(view)
    if play is None or combination(play) not in combinations:
        raise IllegalAction("%s may not be played now" % " ".join(cards))
    return "play " + " ".join(sort_cards(cards))


def combination(play):
    """Return what tells two plays apart for the rules: shape, length, rank and bomb strength."""
    return [play["shape"], play["length"], play["rank"], play["bomb"]]


def legal_combinations(view):
    """Return the combinations of the view's legal plays (see combination)."""
    found = []
    for listed in view["legal"]:
        if listed.startswith("play "):
            found.append(combination(classify(listed.split(" ")[1:], view["opening"])))
    return found


def apply_action(state, seat, action):
    """Validate and apply one action of one seat; raise IllegalAction before changing anything."""
    verb, args = parse_action(action)
    if _game_over(state):
        raise IllegalAction("the table is finished")
    check_seat(seat, SEATS)
    if deal_over(state):
        if verb not in ("next", "stop") or args:
            raise IllegalAction("the deal is over: 'next' or 'stop'")
        if seat in state["ready"]:
            raise IllegalAction("seat %d is already ready for the next deal" % seat)
        if verb == "stop":
            state["stopped_by"] = seat
            return
        state["ready"].append(seat)
        if len(state["ready"]) == SEATS:
            rng = Rng(state["rng"])
            _deal(state, rng)
        return
    if seat != state["turn"]:
        raise IllegalAction("it is seat %d's turn" % state["turn"])
    if verb == "pass":
        if args:
            raise IllegalAction("'pass' takes no cards")
        _pass(state, seat)
    elif verb == "play":
        _play(state, seat, args)
    else:
        raise IllegalAction("%r is for after a deal; during a deal: 'play <cards>' or 'pass'" % action)


def _pass(state, seat):
    """Apply a pass (only without a legal answer); close the trick after the second pass."""
    if _top(state) is None:
        raise IllegalAction("the leader may not pass")
    if _answers(state, seat):
        raise IllegalAction("a legal answer exists, so seat %d must answer" % seat)
    state["trick"].append({"seat": seat, "cards": []})
    trick = state["trick"]
    if len(trick) >= 2 and not trick[-1]["cards"] and not trick[-2]["cards"]:
        # Both others passed: the trick closes and its last player leads.
        top = _top(state)
        if _is_answering_bomb(state, top):
            _settle_bomb(state, top)
        state["tricks"].append(trick)
        state["trick"] = []
        state["turn"] = top["seat"]
    else:
        state["turn"] = (seat + 1) % SEATS


def _is_answering_bomb(state, entry):
    """Return whether a trick entry is a bomb played as an answer (not the trick's lead)."""
    if state["trick"][0] is entry:
        return False
    return classify(entry["cards"])["bomb"] > 0


def _play(state, seat, cards):
    """Validate and apply a play; settle the deal when it empties the hand."""
    hand = state["hands"][seat]
    if not cards:
        raise IllegalAction("'play' needs at least one card")
    for card in cards:
        if card not in hand:
            raise IllegalAction("%s is not in seat %d's hand" % (card, seat))
    if len(set(cards)) != len(cards):
        raise IllegalAction("a card is named twice")
    opening = _opening(state)
    if opening and HEART_THREE not in cards:
        raise IllegalAction("the first play of the deal must include the 3 of hearts")
    play = classify(cards, opening)
    if play is None:
        raise IllegalAction("%s is not a legal combination" % " ".join(cards))
    previous = _top_description(state)
    if previous is not None and not beats(play, previous):
        raise IllegalAction("%s does not beat the cards on the table" % " ".join(cards))
    # Legal: apply.
    entry = {"seat": seat, "cards": sort_cards(cards)}
    state["trick"].append(entry)
    for card in cards:
        hand.remove(card)
    state["has_played"][seat] = True
    state["played"].extend(entry["cards"])
    if hand:
        state["turn"] = (seat + 1) % SEATS
        return
    # The seat went out: a finishing answer bomb is paid at once, then the deal is settled.
    if _is_answering_bomb(state, entry):
        _settle_bomb(state, entry)
    _settle_out(state, seat)
    state["tricks"].append(state["trick"])
    state["trick"] = []


def _settle_bomb(state, entry):
    """Record the bomb bonus of an answering bomb: 10 from each other seat."""
    seat = entry["seat"]
    points = [-BOMB_BONUS] * SEATS
    points[seat] = BOMB_BONUS * (SEATS - 1)
    state["log"][-1]["settlements"].append({
        "kind": "bomb", "seat": seat, "top": RANK_LABEL[card_value(entry["cards"][0])],
        "points": points})


def _settle_out(state, winner):
    """Record the settlement of a seat going out: the others pay for cards, the 2 of spades and bombs."""
    points = [0] * SEATS
    losers = []
    for seat in range(SEATS):
        if seat == winner:
            continue
        hand = state["hands"][seat]
        never = not state["has_played"][seat]
        spade_two = SPADE_TWO in hand
        bombs = whole_bombs(hand)
        pays = len(hand) * (2 if never else 1)
        pays += SPADE_TWO_PENALTY if spade_two else 0
        pays += WHOLE_BOMB_PENALTY * len(bombs)
        points[seat] -= pays
        points[winner] += pays
        losers.append({"seat": seat, "cards_left": len(hand), "never_played": never,
                       "spade_two": spade_two, "bombs": bombs, "pays": pays})
    state["log"][-1]["settlements"].append(
        {"kind": "out", "seat": winner, "points": points, "losers": losers})


# ---------------------------------------------------------------- views and outcome

# Descriptions of the deal's plays by their cards: every view describes every play of the deal again, and a
# room's host makes a view per seat and one for the table after every move (classify is milliseconds in Brython).
_DESCRIBED = {}
KEPT_DESCRIPTIONS = 4000  # a bound far above one table's plays


def _described(cards, first):
    """Return classify(cards, first) as a fresh dict (a view's own), made once per cards and deal-first."""
    key = (" ".join(cards), first)
    if key not in _DESCRIBED:
        if len(_DESCRIBED) > KEPT_DESCRIPTIONS:
            _DESCRIBED.clear()
        _DESCRIBED[key] = classify(cards, first)
    found = _DESCRIBED[key]
    return None if found is None else dict(found)


def _trick_view(state, trick):
    """Return the public form of a trick: who played what (with its description) and who passed."""
    views = []
    for entry in trick:
        if entry["cards"]:
            views.append({"seat": entry["seat"], "pass": False, "cards": list(entry["cards"]),
                          "play": _described(entry["cards"], _is_deal_first(state, entry))})
        else:
            views.append({"seat": entry["seat"], "pass": True, "cards": [], "play": None})
    return views


def view(state, seat):
    """Return what one seat (or the table, seat None) may see."""
    check_seat(seat, len(state["hands"]), table=True)  # -1 would index the last hand
    over = deal_over(state)
    top = _top(state)
    log = []
    for record in state["log"]:
        log.append({"deal": record["deal"], "points": deal_points(record),
                    "settlements": [_copy_settlement(s) for s in record["settlements"]]})
    result = {
        "game": "paodekuai",
        "seat": seat,
        "names": list(state["names"]),
        "deal": len(state["log"]),
        "deals": state["options"]["deals"],
        "hand_sizes": [len(hand) for hand in state["hands"]],
        "has_played": list(state["has_played"]),
        "trick": _trick_view(state, state["trick"]),
        "top": None if top is None else {"seat": top["seat"], "cards": list(top["cards"]),
                                         "play": _top_description(state)},
        "leader": None if over else (state["trick"][0]["seat"] if state["trick"] else state["turn"]),
        "turn": None if over else state["turn"],
        "opening": _opening(state),
        "last_trick": _trick_view(state, state["tricks"][-1]) if state["tricks"] else [],
        "tricks": [_trick_view(state, trick) for trick in state["tricks"]],
        "played": list(state["played"]),
        "settlements": log[-1]["settlements"],
        "table": table_totals(state),
        "log": log,
        "deal_over": over,
        "ready": list(state["ready"]),
        "to_move": to_move(state),
        "stopped_by": state["stopped_by"],
        "outcome": outcome(state),
        "legal": legal_actions(state, seat) if seat is not None else [],
    }
    if seat is not None:
        result["hand"] = list(state["hands"][seat])
    return result


def _copy_settlement(settlement):
    """Return a copy of a settlement record for a view."""
    copy = {"kind": settlement["kind"], "seat": settlement["seat"],
            "points": list(settlement["points"])}
    if "top" in settlement:
        copy["top"] = settlement["top"]
    if "losers" in settlement:
        copy["losers"] = [dict(loser, bombs=list(loser["bombs"])) for loser in settlement["losers"]]
    return copy


def progress(view):
    """Return the deal to show on "Fortsetzen", deals finished and the table totals, from the public view."""
    done = view["deal"] if view["deal_over"] else view["deal"] - 1
    return {"round": view["deal"], "done": done, "scores": list(view["table"])}


def outcome(state):
    """Return None while the table runs, else the winners (highest total) and the totals."""
    if not _game_over(state):
        return None
    totals = table_totals(state)
    return game_outcome(totals, totals, deals=finished_deals(state), stopped_by=state["stopped_by"])


def replay_cards(state, seat):
    """Return every seat's cards for a replay of the finished game, and the table's middle.

    {"hands": [[card or None per card] per seat], "middle": [cards]}: all open for seat None,
    else only what `seat` could see then (None for a card it could not).
    """
    hands = [sort_cards(hand) if seat is None or other == seat else [None] * len(hand)
             for other, hand in enumerate(state["hands"])]
    # Between tricks and at the deal's end, the closed trick's last play: the step that went out shows its cards.
    trick = state["trick"] if state["trick"] or not state["tricks"] else state["tricks"][-1]
    shown = [entry["cards"] for entry in trick if entry["cards"]]
    return {"hands": hands, "middle": list(shown[-1]) if shown else []}
