"""Computer players for Golf: leicht (random), mittel (a plain threshold player) and stark.

The plain player counts a card it has not seen as 6, keeps low cards and
knocks at an estimated 8 or less.

The strong player reads only its view. It knows the cards it has seen in its
own grid, and it counts the cards that are out of play for it (its own known
cards, the discard pile, cards everybody saw going into a grid) to get the
distribution of every card it cannot see. With it:
- it takes the top discard only when that beats the expected gain of drawing;
- it swaps a drawn card into the position where it gains the most (an unknown
  card counts at the expected value, with a small bonus for learning the spot);
- it estimates each opponent's grid from what the table saw (cards taken from
  the pile, cards swapped in from the stock, untouched cards) and knocks when
  its own total is low enough and most likely the lowest after everyone's last turn.
"""

RANK_VALUES = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
               "J": 10, "Q": 10, "K": 0}
# Cards of each value in one deck: King 0 (4), Ace..9 (4 each), 10/Jack/Queen (12).
DECK_COUNTS = [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 12]
POSITIONS = [0, 1, 2, 3]

# Tuned with bench/strength_golf.py.
INFO_BONUS = 0.6        # worth of turning an unknown spot of my own into a known one
PLACED_GUESS = 2.8      # an opponent's card swapped in from the stock (they keep low cards)
KEPT_GUESS = 4.0        # an opponent's dealt bottom card it has kept (it knows it; high ones go)
KNOCK_ALWAYS = 3        # knock at or below this total, all own cards known, whatever the others hold
KNOCK_MAX = 10          # never knock above this estimate
KNOCK_MARGIN = 9.0      # lead over the best opponent estimate needed to knock in between
                        # (large: waiting costs little, a failed knock costs 10)
MARGIN_DECAY = 0.5      # the needed lead shrinks by this much per own turn (long rounds must end)
MIN_MARGIN = 1.0        # ... but never below this
LAST_TURN_GAIN = 1.5    # how much an opponent is expected to improve in its last turn
UNKNOWN_RISK = 1.5      # extra margin per own card still unknown
THRESHOLD_KNOCK = 8     # the plain player knocks at an estimated total of this or less,
THRESHOLD_UNKNOWN = 6   # counts a card it has not seen as 6,
THRESHOLD_TAKE = 4      # and takes a discard of at most 4 when it improves a spot


def card_value(card):
    """Return the points of a card."""
    return RANK_VALUES[card[:-1]]


def choose_random(view, rng):
    """Pick any legal action (knocks whenever the dice say so)."""
    return rng.choice(view["legal"])


def unseen_counts(view):
    """Return how many cards of each value (0..10) this seat cannot see anywhere."""
    decks = view["decks"]
    counts = [c * decks for c in DECK_COUNTS]
    seen = [card for card in view["known"] if card is not None]
    seen.extend(view["discard"])
    me = view["seat"]
    for seat, row in enumerate(view["public"]):
        if seat != me:
            for card in row:
                if card is not None:
                    seen.append(card)
    if view.get("drawn"):
        seen.append(view["drawn"])
    for card in seen:
        value = RANK_VALUES[card[:-1]]
        if counts[value] > 0:
            counts[value] -= 1
    return counts


def _mean(counts):
    total = 0
    weighted = 0
    for value in range(11):
        total += counts[value]
        weighted += value * counts[value]
    return weighted / total if total else 5.77


def own_estimates(view, mean):
    """Return the expected value of each own position: the known card, else the unseen mean."""
    return [mean if card is None else RANK_VALUES[card[:-1]] for card in view["known"]]


def opponent_estimate(view, seat, mean):
    """Return the expected total of another seat from what the table saw this round."""
    status = ["dealt"] * 4
    turns = 0
    for event in view["events"]:
        if event["seat"] != seat:
            continue
        turns += 1
        if event["action"] == "swap":
            status[event["position"]] = "placed"
        elif event["action"] == "take":
            status[event["position"]] = "public"
    public = view["public"][seat]
    total = 0.0
    for position in POSITIONS:
        if public[position] is not None:
            total += RANK_VALUES[public[position][:-1]]
        elif status[position] == "placed":
            total += PLACED_GUESS
        elif position >= 2 and turns > 0:
            # A card it has known since the deal and kept through its turns is rarely high.
            total += KEPT_GUESS if turns > 1 else (KEPT_GUESS + mean) / 2
        else:
            total += mean
    return total


def _best_swap(estimates, value, bonus):
    """Return (gain, position) of the best place for a card of `value`."""
    best_gain = None
    best_position = 0
    for position in POSITIONS:
        gain = estimates[position] - value + bonus[position]
        if best_gain is None or gain > best_gain:
            best_gain = gain
            best_position = position
    return best_gain, best_position


def _draw_gain(counts, estimates, bonus):
    """Return the expected gain of drawing: each unseen value, swapped in where it helps most, or discarded."""
    total = 0
    gain = 0.0
    for value in range(11):
        if counts[value]:
            best, _ = _best_swap(estimates, value, bonus)
            if best > 0:
                gain += best * counts[value]
            total += counts[value]
    return gain / total if total else 0.0


def should_knock(view, estimates, mean):
    """Return True when knocking now most likely leaves this seat with the lowest points."""
    mine = 0.0
    unknown = 0
    for position in POSITIONS:
        mine += estimates[position]
        if view["known"][position] is None:
            unknown += 1
    if mine > KNOCK_MAX:
        return False
    if mine <= KNOCK_ALWAYS and unknown == 0:
        return True
    me = view["seat"]
    best_other = None
    for seat in range(view["seats"]):
        if seat != me:
            guess = opponent_estimate(view, seat, mean) - LAST_TURN_GAIN
            if best_other is None or guess < best_other:
                best_other = guess
    own_turns = 0
    for event in view["events"]:
        if event["seat"] == me:
            own_turns += 1
    margin = KNOCK_MARGIN - MARGIN_DECAY * own_turns
    if margin < MIN_MARGIN:
        margin = MIN_MARGIN
    return mine + margin + UNKNOWN_RISK * unknown <= best_other


def choose_strong(view, rng):
    """Knock, take, draw, swap or discard by expected points (see the module docstring)."""
    legal = view["legal"]
    if legal == ["ready"]:
        return "ready"
    counts = unseen_counts(view)
    mean = _mean(counts)
    estimates = own_estimates(view, mean)
    last_turn = view["knocker"] is not None
    bonus = [0.0] * 4
    if not last_turn:
        for position in POSITIONS:
            if view["known"][position] is None:
                bonus[position] = INFO_BONUS
    drawn = view.get("drawn")
    if drawn is not None:
        gain, position = _best_swap(estimates, card_value(drawn), bonus)
        return "swap %d" % position if gain > 0 else "discard"
    if "knock" in legal and should_knock(view, estimates, mean):
        return "knock"
    top = view["discard_top"]
    take_gain, take_position = _best_swap(estimates, card_value(top), bonus)
    if "draw" not in legal or (take_gain > 0 and take_gain >= _draw_gain(counts, estimates, bonus)):
        return "take %d" % take_position
    return "draw"


def choose_threshold(view, rng):
    """A plain player: knock at an estimated total of 8 or less, keep low cards, count unknown cards as 6."""
    legal = view["legal"]
    if legal == ["ready"]:
        return "ready"
    estimates = [THRESHOLD_UNKNOWN if card is None else card_value(card) for card in view["known"]]
    worst = 0
    for position in POSITIONS:
        if estimates[position] > estimates[worst]:
            worst = position
    drawn = view["drawn"]  # every seat view has it; dict.get on a miss is slow in Brython
    if drawn is not None:
        if card_value(drawn) < estimates[worst]:
            return "swap %d" % worst
        return "discard"
    if "knock" in legal and sum(estimates) <= THRESHOLD_KNOCK:
        return "knock"
    top = card_value(view["discard_top"])
    if top <= THRESHOLD_TAKE and top < estimates[worst]:
        return "take %d" % worst
    return "draw" if "draw" in legal else "take %d" % worst


def hint(view, rng):
    """Return the strong choice for this view with a one-line reason (German, English)."""
    action = choose_strong(view, rng)
    verb = action.split()[0]
    if verb == "knock":
        return action, "Deine Karten sind wohl die niedrigsten am Tisch.", \
            "Your cards are likely the lowest at the table."
    if verb == "take":
        return action, "Die offene Karte ist besser als das, was der Stapel im Schnitt bringt.", \
            "The open card beats what the stock brings on average."
    if verb == "swap":
        position = int(action.split()[1])
        if view["known"][position] is None:  # a card never seen: only the average says it is worse
            return action, "Die gezogene Karte ist niedriger, als eine unbekannte Karte im Schnitt ist.", \
                "The drawn card is lower than an unknown card is on average."
        return action, "Die gezogene Karte senkt deine Summe.", "The drawn card lowers your total."
    if verb == "discard":
        return action, "Die gezogene Karte hilft dir nicht.", "The drawn card does not help you."
    if verb == "draw":
        return action, "Die offene Karte hilft wenig: lieber ziehen.", "The open card helps little: draw instead."
    return action, None, None


STRENGTHS = {"leicht": choose_random, "mittel": choose_threshold, "stark": choose_strong}
# Keys saved by earlier releases (games, settings, rooms) and the level they mean now.
STRENGTH_ALIASES = {"random": "leicht", "medium": "mittel", "strong": "stark", "vorausschauend": "stark"}
LEVEL_INFO = {
    "leicht": ("Zieht, tauscht und klopft nach Lust und Laune.", "Draws, swaps and knocks on a whim."),
    "mittel": ("Behält niedrige Karten und klopft bei geschätzt 8 Punkten oder weniger.",
               "Keeps low cards and knocks at an estimated 8 points or less."),
    "stark": ("Zählt Karten, schätzt die anderen ein und klopft mit Bedacht.",
              "Counts cards, sizes up the others and knocks with care."),
}
