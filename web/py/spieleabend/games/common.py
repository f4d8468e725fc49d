"""Pieces every engine shares: the typed errors, a seeded generator, cards and plain-data helpers.

Standard library only and no imports at all: this module runs in CPython and in
Brython, where every standard-library import costs start time.
"""

MASK32 = 0xFFFFFFFF


class IllegalAction(ValueError):
    """An action that the rules do not allow for this seat now; the state is unchanged."""


class MalformedAction(IllegalAction):
    """A text that is no action of this game at all (a typo, another spelling); the state is unchanged.

    A subclass of IllegalAction, as python-chess's InvalidMoveError and IllegalMoveError are both
    ValueErrors: whoever only needs "refused" catches IllegalAction.
    """


class BadOptions(ValueError):
    """Options for a new game that the rules do not allow."""


def _rotl(x, k):
    return ((x << k) & MASK32) | (x >> (32 - k))


class Rng:
    """A seeded xoshiro128** generator whose state is four 32-bit ints.

    Identical in CPython and Brython by construction (only shifts, xors, small
    multiplications below 2**53), so the same seed deals the same game in both.
    Its `state` is plain data and is kept inside a game's state.
    """

    def __init__(self, seed_or_state=0):
        if isinstance(seed_or_state, list):
            self.state = [int(w) & MASK32 for w in seed_or_state]
        else:
            self.state = _splitmix_words(int(seed_or_state))
        if not any(self.state):
            self.state = [1, 0, 0, 0]

    def next32(self):
        """Return the next 32-bit unsigned integer."""
        s = self.state
        s1 = s[1]
        result = (_rotl((s1 * 5) & MASK32, 7) * 9) & MASK32
        t = (s1 << 9) & MASK32
        s[2] ^= s[0]
        s[3] ^= s1
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 11)
        return result

    def below(self, n):
        """Return an int in [0, n) (n < 2**21 keeps the product below 2**53)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        return (self.next32() * n) >> 32

    def random(self):
        """Return a float in [0, 1)."""
        return self.next32() / 4294967296.0

    def choice(self, items):
        """Return one element of a non-empty sequence."""
        return items[self.below(len(items))]

    def shuffle(self, items):
        """Shuffle a list in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def fork(self):
        """Return a new independent generator seeded from this one."""
        return Rng([self.next32(), self.next32(), self.next32(), self.next32()])


def _splitmix_words(seed):
    """Spread an integer seed over four nonzero-ish 32-bit words (splitmix32)."""
    words = []
    x = seed & MASK32
    hi = (seed >> 32) & MASK32
    for i in range(4):
        x = (x + 0x9E3779B9 + hi) & MASK32
        z = x
        z = ((z ^ (z >> 16)) * 0x85EB) & MASK32
        z = ((z ^ (z >> 13)) * 0xC2B2) & MASK32
        z = z ^ (z >> 16)
        words.append(z)
    return words


def copy_data(value):
    """Deep-copy plain data (dict, list, str, int, bool, None) without the copy module."""
    if isinstance(value, dict):
        return {k: copy_data(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_data(v) for v in value]
    return value


# French cards as short strings: rank then suit, e.g. "7H", "10D", "JS", "AC".
# Suits: S Pik (spades), H Herz (hearts), D Karo (diamonds), C Kreuz (clubs).
SUITS = ["S", "H", "D", "C"]
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def card_rank(card):
    """Return the rank part of a card string ("10" of "10D")."""
    return card[:-1]


def card_suit(card):
    """Return the suit letter of a card string ("D" of "10D")."""
    return card[-1]


def french_deck(decks=1):
    """Return a fresh ordered list of 52 * decks card strings."""
    return [rank + suit for _ in range(decks) for suit in SUITS for rank in RANKS]


def is_whole(value):
    """Return True for an int that is not a bool (JSON numbers and options are checked with it)."""
    return isinstance(value, int) and not isinstance(value, bool)


def no_seat_text(seat):
    """Return why a number is no seat at this table, in the words of every game."""
    return "there is no seat %r at this table" % (seat,)


def check_seat(seat, seats, table=False):
    """Raise IllegalAction unless `seat` is one of `seats` seats (or None, the table's view, when `table`)."""
    if not (is_whole(seat) and 0 <= seat < seats) and not (table and seat is None):
        raise IllegalAction(no_seat_text(seat))


def seat_names(options, seats):
    """Return the seat names from options (default "Spieler 1".."Spieler n"); raise BadOptions if wrong."""
    names = options.get("names")
    if names is None:
        return ["Spieler %d" % (seat + 1) for seat in range(seats)]
    if (not isinstance(names, list) or len(names) != seats
            or not all(isinstance(name, str) for name in names)):
        raise BadOptions("names must be a list of %d strings" % seats)
    return list(names)


def rank_by_keys(keys):
    """Return [{"seat", "place"}] best first: greater keys rank higher, equal keys share a place."""
    seats = list(range(len(keys)))
    order = sorted(seats, key=lambda seat: [keys[seat], -seat], reverse=True)
    return [{"seat": seat, "place": 1 + len([other for other in seats if keys[other] > keys[seat]])}
            for seat in order]


def game_outcome(scores, keys, lower_wins=False, share_ties=True, **details):
    """Return the one shape every engine's outcome() has, from per-seat scores and ranking keys.

    keys[seat] orders the seats, greater is better (a list for tie-breaks); equal keys share a place.
    The seats with the best key win: all of them when `share_ties`, else nobody unless one alone.
    The game-night point goes to a sole winner; "no_point" says why nobody has it ("shared" or
    "undecided"). `details` are the engine's own figures (tie-breaks, rounds), kept as given.
    """
    ranking = rank_by_keys(keys)
    leaders = [row["seat"] for row in ranking if row["place"] == 1]
    winners = leaders if share_ties or len(leaders) == 1 else []
    result = {"winners": winners, "scores": list(scores), "ranking": ranking, "lower_wins": bool(lower_wins),
              "night_point": winners[0] if len(winners) == 1 else None,
              "no_point": None if len(winners) == 1 else ("shared" if winners else "undecided")}
    for key in details:
        result[key] = details[key]
    return result


def parse_words(action, verbs):
    """Split an action text into (verb, words) for a verb this game knows; raise MalformedAction otherwise.

    The engines' actions are short texts ("play 7", "pass"): one canonical spelling each, so
    the engine accepts exactly what legal_actions lists and no screen rewrites an action.
    """
    if not isinstance(action, str) or action != action.strip() or "  " in action or not action:
        raise MalformedAction("not an action: %r" % (action,))
    words = action.split(" ")
    if words[0] not in verbs:
        raise MalformedAction("unknown action: %r" % (action,))
    return words[0], words[1:]


def secret_round_cards(hands, chosen, seat, last_revealed):
    """Return replay_cards of a game where every seat chooses one card in secret (Punktejagd, Kartenkampf).

    `chosen`: per seat the card chosen this round or None. {"hands", "middle", "middle_seats"} (whose each
    middle card is): all open for seat None,
    else only what `seat` could see then (None for a card it could not); a chosen card is out of its
    hand and in the middle (face down to the others), and before the round's first choice the middle
    holds `last_revealed`, the round revealed last.
    """
    shown_hands = []
    for other, hand in enumerate(hands):
        held = sorted(hand)
        if chosen[other] is not None and chosen[other] in held:
            held.remove(chosen[other])
        shown_hands.append(held if seat is None or other == seat else [None] * len(held))
    middle = [card if seat is None or other == seat else None for other, card in enumerate(chosen) if card is not None]
    if middle:
        return {"hands": shown_hands, "middle": middle,
                "middle_seats": [other for other, card in enumerate(chosen) if card is not None]}
    return {"hands": shown_hands, "middle": list(last_revealed), "middle_seats": list(range(len(last_revealed)))}



# Checks of a saved state (the engines' check_state): each raises ValueError with a short reason.

def need(condition, reason, *values):
    """Raise ValueError(reason % values) unless `condition` holds (formatted only then: a check runs at every
    Fortsetzen, in Brython)."""
    if not condition:
        raise ValueError(reason % values if values else reason)


def is_seat(value, seats):
    """Return True for a whole number from 0 to seats - 1."""
    return is_whole(value) and 0 <= value < seats


def check_numbers(values, count, low, high, what):
    """Raise ValueError unless `values` is a list of `count` (None: any number of) whole numbers low..high
    (None: no bound)."""
    need(isinstance(values, list) and (count is None or len(values) == count),
         "%s: not a list of %s numbers", what, "some" if count is None else count)
    for value in values:
        # type() rather than is_whole: no call a number (bool's type is not int)
        if not (type(value) is int and (low is None or value >= low) and (high is None or value <= high)):
            raise ValueError("%s: %r is no whole number from %s to %s" % (what, value, low, high))


def check_flags(values, count, what):
    """Raise ValueError unless `values` is a list of `count` bools."""
    need(isinstance(values, list) and len(values) == count, "%s: not a list of %d flags", what, count)
    for value in values:
        if value is not True and value is not False:
            raise ValueError("%s: %r is no flag" % (what, value))


def check_names(names, count):
    """Raise ValueError unless `names` is a list of `count` strings."""
    need(isinstance(names, list) and len(names) == count, "names: not one a seat")
    for name in names:
        if not isinstance(name, str):
            raise ValueError("names: %r is no name" % (name,))


def check_rng(words):
    """Raise ValueError unless `words` is a state of Rng: four whole 32-bit numbers, not all zero."""
    check_numbers(words, 4, 0, MASK32, "rng")
    need(any(words), "rng: all four words are zero")


def check_table(state, min_seats, max_seats):
    """Raise ValueError unless `state` is a dict with a seat count in range, a name a seat and an rng state;
    return the seat count (the opening every engine's check_state shares)."""
    need(isinstance(state, dict), "not a game state")
    seats = state.get("seats")
    need(is_whole(seats) and min_seats <= seats <= max_seats, "seats: %r", seats)
    check_names(state.get("names"), seats)
    check_rng(state.get("rng"))
    return seats


def check_cards(places, deck, what="cards"):
    """Raise ValueError unless the cards in `places` (lists of cards) are, all together, exactly the cards
    of `deck` as a multiset: none missing, none twice too often, nothing that is no card of the game."""
    left = {}
    for card in deck:
        left[card] = left[card] + 1 if card in left else 1
    for place in places:
        if not isinstance(place, list):
            raise ValueError("%s: %r is no list of cards" % (what, place))
        for card in place:
            # The type first: True would be found as the card 1, and a list is no dict key.
            kind = type(card)
            if not ((kind is str or kind is int) and card in left):
                raise ValueError("%s: %r is no card of the game" % (what, card))
            if not left[card]:
                raise ValueError("%s: the card %r is there too often" % (what, card))
            left[card] -= 1
    missing = [card for card in left if left[card]]
    if missing:
        raise ValueError("%s: missing %s" % (what, " ".join([str(card) for card in missing[:5]])))


def check_secret_hands(hands, spent, cards):
    """Raise ValueError unless each seat's hand, in order, and the cards it spent are together exactly `cards`
    (Punktejagd's and Kartenkampf's seats each hold the numbers 1 to 10)."""
    for seat, hand in enumerate(hands):
        check_cards([hand, spent[seat]], cards, "cards of seat %d" % seat)
        need(hand == sorted(hand), "hands: seat %d's hand is out of order", seat)
