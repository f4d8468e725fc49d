"""Computer players for Mau-Mau; each `choose(view, rng)` sees only its seat's view and returns a legal action.

Strengths, weakest first:
    leicht  any legal action, forgets Mau now and then
    mittel  plays whenever it can, saves Jacks, passes 7s on, always says Mau
    stark   weighs every play: keeps 7s for defence and ranks it holds twice as suit switches,
            uses 8, 9 and Aces when they help, keeps a Jack for its last card, names the Jack's suit by its hand, watches opponents' hand sizes and the suits they could not
            follow, sheds high cards when an opponent is close to going out, and then also weighs each
            play by a small score learned from a playout search (when to keep a Jack, which suit to name)
"""

from spieleabend.bots import network_score
from spieleabend.bots.maumau_weights import HIDDEN, HIDDEN_BIAS, OUTPUT
from spieleabend.games.common import SUITS
from spieleabend.games.maumau import step_seat

CARD_POINTS = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
               "J": 20, "Q": 10, "K": 10, "A": 11}
FORGET_MAU_ONE_IN = 4
# The strong player's weights (bench/strength_maumau.py): how much shedding a card's minus
# points counts when an opponent is about to go out and when not, and what keeping a Jack is worth.
DANGER_POINT_WEIGHT = 0.6
CALM_POINT_WEIGHT = 0.05
JACK_KEEP = 9
JACK_KEEP_DANGER = 9
DANGER_SIZE = 2
# Worth of each other card of the played suit kept in hand: playing from a long suit leaves a top
# this seat can follow again. With DANGER_POINT_WEIGHT 0.6 (was 0.25) it took the strong seat from
# 2.6 to 3.3 minus points per deal below the Mittel seats' mean (3,000 paired deals, 4 seats);
# alone, 1 gave 2.9 and 3 or -1 less than before.
SUIT_WEIGHT = 0.5
# Once an opponent holds LEARNED_NEAR cards or fewer, the play with the best score of a small network
# (bots/maumau_weights.py; its inputs include the score above) is taken. The network is fitted to what
# a playout search found each play worth (bench/maumau_distill.py): 40.5 / 40.2 % of whole games
# against 3 Mittel (20,000 each, seeds from 9,000,000 / 5,000,000), was 37.1 / 37.1 %; fitted to
# decisions with an opponent at 3 cards or fewer, it gained more used from 4 (3: 39.8 / 40.1 %).
# Its score averaged with a second network's, fitted to real continuations (the true hands, only
# the stock reshuffled), plays 40.9 / 41.0 % (paired +0.5 / +0.7 points, each about ± 0.7).
LEARNED_NEAR = 4


def _split(action):
    """Return (card, named suit or "", says mau) of a play action."""
    parts = action.split(" ")
    card, _, wish = parts[1].partition(":")
    return card, wish, len(parts) == 3


def _with_mau(action, legal):
    """Return the action with Mau said when that variant is legal."""
    said = action + " mau"
    return said if said in legal else action


def choose_random(view, rng):
    """Pick any legal action at random; say Mau most of the time, but not always."""
    legal = view["legal"]
    bases = [action for action in legal if not action.endswith(" mau")]
    action = bases[rng.below(len(bases))]
    said = action + " mau"
    if said in legal and rng.below(FORGET_MAU_ONE_IN) != 0:
        return said
    return action


def _best_suit(cards):
    """Return the suit most represented among non-Jack cards (ties: more points, then suit order)."""
    counts = {"S": 0, "H": 0, "D": 0, "C": 0}
    for card in cards:
        if card[:-1] != "J":
            counts[card[-1]] += 10 + CARD_POINTS[card[:-1]] * 0.01
    best = SUITS[0]
    for suit in SUITS:
        if counts[suit] > counts[best]:
            best = suit
    return best


def choose_medium(view, rng):
    """Play the first fitting card that is not a Jack (a Jack only if nothing else fits); never draw by choice."""
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    hand = view["hand"]
    plain = []
    jacks = []
    for action in legal:
        if action == "draw" or action.endswith(" mau"):
            continue
        card, wish, _ = _split(action)
        if wish:
            jacks.append(card)
        else:
            plain.append(action)
    if plain:
        return _with_mau(plain[0], legal)
    card = jacks[0]
    rest = list(hand)
    rest.remove(card)
    return _with_mau("play " + card + ":" + _best_suit(rest), legal)


# ---------------------------------------------------------------- strong

def _opponent_gaps(view):
    """Return per seat the suits it drew on instead of following (and has not played since)."""
    gaps = {}
    for event in view["events"]:
        kind = event["type"]
        seat = event.get("seat")
        if seat is None:
            continue
        if kind == "draw" and not event["obligation"]:
            gaps.setdefault(seat, {})[event["suit"]] = True
        elif kind == "play":
            suits = gaps.get(seat)
            if suits is not None:
                suits.pop(event["card"][-1], None)
        elif kind == "deal":
            gaps = {}
    return gaps


def _fits(card, top_suit, top_rank):
    """Return True if `card` may be played on a top with this suit to follow and rank."""
    rank = card[:-1]
    return rank == "J" or card[-1] == top_suit or rank == top_rank


def _can_empty(hand, top_suit, top_rank, extra_turn_ranks):
    """Return a card sequence that empties the hand within this turn (Aces, and 8s when heads-up), or None."""
    # Only extra-turn cards can come before the last card, so at most one other card may be left.
    others = 0
    for card in hand:
        if card[:-1] not in extra_turn_ranks:
            others += 1
    if others > 1 or len(hand) > 6:
        return None
    return _chain(hand, top_suit, top_rank, extra_turn_ranks)


def _chain(hand, top_suit, top_rank, extra_turn_ranks):
    """Search the orders of extra-turn cards that end with the last card fitting."""
    tried = {}
    for card in hand:
        if card in tried or not _fits(card, top_suit, top_rank):
            continue
        tried[card] = True
        if len(hand) == 1:
            return [card]
        rank = card[:-1]
        if rank in extra_turn_ranks:
            rest = list(hand)
            rest.remove(card)
            chain = _chain(rest, card[-1], rank, extra_turn_ranks)
            if chain is not None:
                return [card] + chain
    return None


def choose_strong(view, rng, learned_near=LEARNED_NEAR):
    """Score every play by what it sheds, what it keeps and what it does to the next seats; take the best.

    Once an opponent holds `learned_near` cards or fewer the learned score counts too (0: never, as
    Stark played before it; the bench compares both)."""
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    hand = view["hand"]
    me = view["seat"]
    sizes = view["hand_sizes"]
    direction = view["direction"]
    nxt = step_seat(view, me, direction)
    prev = step_seat(view, me, -direction)
    heads_up = nxt == prev
    min_other = 99
    for seat in range(len(sizes)):
        if seat != me and not view["out"][seat] and sizes[seat] < min_other:
            min_other = sizes[seat]
    danger = min_other <= DANGER_SIZE

    cards = {}
    for action in legal:
        if action != "draw":
            cards[_split(action)[0]] = True

    if view["pending"]:
        # Pass the obligation on with the 7 of the suit we hold most of afterwards.
        best = None
        best_score = -1
        for card in cards:
            rest = list(hand)
            rest.remove(card)
            score = sum(1 for other in rest if other[-1] == card[-1])
            if score > best_score:
                best, best_score = card, score
        return _with_mau("play " + best, legal)

    extra = {"A": True}
    if heads_up:
        extra["8"] = True
    chain = _can_empty(hand, view["suit"], view["top"][:-1] if not view["wish"] else "J", extra)
    if chain is not None:
        return _finish(chain[0], hand, legal, nxt, view)

    gaps = _opponent_gaps(view)
    scores = play_scores(view, cards, gaps, nxt, prev, danger)
    best_action = None
    best_score = -1e9
    for card in cards:
        if scores[card] > best_score:
            best_score = scores[card]
            best_action = card
    action = _finish(best_action, hand, legal, nxt, view)
    if min_other > learned_near:
        return action
    chosen = action.split(" ")[1]
    plays = []
    for option in legal:
        if option != "draw" and not option.endswith(" mau"):
            plays.append(option.split(" ")[1])
    if len(plays) < 2:
        return action
    best_play = None
    best_value = -1e9
    for play in plays:
        stark = scores[play.partition(":")[0]]
        value = learned_score(learned_inputs(view, gaps, nxt, prev, play, stark, play == chosen))
        if value > best_value:
            best_play, best_value = play, value
    return _with_mau("play " + best_play, legal)


def play_scores(view, cards, gaps, nxt, prev, danger):
    """Return Stark's hand-weighted score of each card it may play (the bench reads them too)."""
    hand = view["hand"]
    sizes = view["hand_sizes"]
    heads_up = nxt == prev
    next_gaps = gaps.get(nxt, {})
    next_size = sizes[nxt]
    scores = {}
    for card in cards:
        rank = card[:-1]
        suit = card[-1]
        rest = list(hand)
        rest.remove(card)
        points = CARD_POINTS[rank]
        score = points * (DANGER_POINT_WEIGHT if danger else CALM_POINT_WEIGHT)
        if rank == "J":
            # A Jack fits anywhere: keep it for when nothing else fits, and as the last card, which
            # then always goes out (measured: 37.1 % of whole games against 3 Mittel, was 36.3 %).
            suit = _best_suit(rest)
            score -= (JACK_KEEP_DANGER if danger else JACK_KEEP) if rest else 0
        same_rank = 0
        fitting = 0
        same_suit = 0
        for other in rest:
            if other[:-1] == rank:
                same_rank += 1
            if _fits(other, suit, rank):
                fitting += 1
            if other[-1] == suit and other[:-1] != "J":
                same_suit += 1
        score += SUIT_WEIGHT * same_suit
        # Cards of a rank held twice switch the suit later: play single ranks first (measured best).
        score -= same_rank * 2.0
        if next_gaps.get(suit):
            score += 2.5
        if rank == "7":
            # Keep 7s to pass obligations on unless the attack hurts a seat close to going out.
            score += 4 if next_size <= 2 else -2.5
        elif rank == "8":
            if heads_up:
                score += 3 + min(fitting, 3) if fitting else -1
            else:
                score += 4 if next_size <= 2 else 0.5
        elif rank == "9":
            if not heads_up:
                score += (sizes[prev] - next_size) * 0.7
        elif rank == "A":
            score += 3 + min(fitting, 3) if fitting else -4
        scores[card] = score
    return scores


def learned_inputs(view, gaps, nxt, prev, play, stark, chosen):
    """Return the learned score's inputs of one play ("card" or "card:suit"), all from the view."""
    hand = view["hand"]
    me = view["seat"]
    sizes = view["hand_sizes"]
    out = view["out"]
    nearest = -1
    seats_in = 0
    for seat in range(len(sizes)):
        if not out[seat]:
            seats_in += 1
            if seat != me and (nearest < 0 or sizes[seat] < sizes[nearest]):
                nearest = seat
    heads_up = 1 if nxt == prev else 0
    card, _, wish = play.partition(":")
    rank = card[:-1]
    suit = wish or card[-1]
    rest = list(hand)
    rest.remove(card)
    points_left = 0
    jacks = 0
    fitting = 0
    same_suit = 0
    same_rank = 0
    suits = {}
    for other in rest:
        other_rank = other[:-1]
        points_left += CARD_POINTS[other_rank]
        if other_rank == "J":
            jacks += 1
        else:
            suits[other[-1]] = True
            if other[-1] == suit:
                same_suit += 1
        if other_rank == "J" or other[-1] == suit or (other_rank == rank and not wish):
            fitting += 1
        if other_rank == rank:
            same_rank += 1
    next_size = sizes[nxt]
    named_best = 0
    if wish:
        named_best = 1 if not rest or _best_suit(rest) == wish else 0
    return [CARD_POINTS[rank] / 10.0, 1 if rank == "7" else 0, 1 if rank == "8" else 0, 1 if rank == "9" else 0,
            1 if rank == "A" else 0, 1 if rank == "J" else 0, 1 if rank in ("10", "Q", "K") else 0,
            len(rest) / 5.0, points_left / 20.0, jacks, 1 if len(rest) == 1 and jacks == 1 else 0, fitting / 3.0,
            same_suit / 3.0, same_rank, 1 if gaps.get(nxt, {}).get(suit) else 0,
            1 if gaps.get(nearest, {}).get(suit) else 0, named_best, stark / 10.0, 1 if chosen else 0,
            1 if next_size == 1 else 0, 1 if next_size == 2 else 0, next_size / 5.0,
            1 if sizes[prev] <= 2 else 0, heads_up, 1 if (rank == "7" or rank == "8") and next_size <= 2 else 0,
            (sizes[prev] - next_size) / 5.0 if rank == "9" and not heads_up else 0, len(suits) / 4.0,
            1 if rank == "8" and heads_up else 0,
            1 if sizes[nearest] == 1 else 0, 1 if sizes[nearest] == 2 else 0, len(hand) / 5.0, seats_in / 4.0,
            1 if nearest == nxt else 0]


def learned_score(inputs):
    """Return the learned score of one play's inputs (minus points)."""
    return network_score(inputs, HIDDEN, HIDDEN_BIAS, OUTPUT)


def _finish(card, hand, legal, nxt, view):
    """Return the full action for playing `card`: name a Jack's suit and say Mau when needed."""
    if card[:-1] == "J":
        rest = list(hand)
        rest.remove(card)
        suit = _best_suit(rest) if rest else _gap_suit(view, nxt)
        return _with_mau("play " + card + ":" + suit, legal)
    return _with_mau("play " + card, legal)


def _gap_suit(view, seat):
    """Return a suit the seat could not follow recently, else spades."""
    gaps = _opponent_gaps(view).get(seat, {})
    for suit in SUITS:
        if gaps.get(suit):
            return suit
    return SUITS[0]


def hint(view, rng):
    """Return the strong choice for this view with a one-line reason (German, English)."""
    action = choose_strong(view, rng)
    pending = view["pending"]
    if action == "draw":
        if not pending:
            return action, "Keine Karte passt.", "No card fits."
        if any([card[:-1] == "7" for card in view["hand"]]):
            return (action, "%d Karten ziehen und die 7 zur Abwehr behalten." % pending,
                    "Draw %d cards and keep the 7 for defence." % pending)
        return action, "Du hast keine 7: %d Karten ziehen." % pending, "You have no 7: draw %d cards." % pending
    if not action.startswith("play "):
        return action, None, None
    card = _split(action)[0]
    rank = card[:-1]
    if pending:
        return action, "Gib die 7 weiter, statt zu ziehen.", "Pass the 7 on instead of drawing."
    if rank == "9" and len([out for out in view["out"] if not out]) <= 2:
        rank = ""  # at two seats left the direction changes nothing: the 9 is just a card that fits
    reasons = {
        "J": ("Der Bube wünscht die Farbe, von der du am meisten hast.", "The Jack calls the suit you hold most of."),
        "7": ("Die 7 trifft den nächsten Spieler, der fast fertig ist.", "The 7 hits the next player, who is nearly out."),
        "8": ("Die 8 lässt den nächsten Spieler aussetzen.", "The 8 makes the next player miss a turn."),
        "A": ("Das Ass gibt dir noch einen Zug.", "The Ace gives you another turn."),
        "9": ("Die 9 dreht die Richtung zu dem Spieler mit mehr Karten.", "The 9 turns play towards the player with more cards."),
    }
    if rank == "J":
        wish = _split(action)[1]
        rest = list(view["hand"])
        rest.remove(card)
        if rest and wish != _best_suit(rest):
            # Near the end of a deal the learned score may name another suit than the longest.
            return (action, "Der Bube wünscht die Farbe, die dir jetzt am meisten nützt.",
                    "The Jack calls the suit that serves you best now.")
    if rank in reasons:
        return (action,) + reasons[rank]
    return action, "Passt und behält die nützlichen Karten.", "Fits and keeps the useful cards."


STRENGTHS = {
    "leicht": choose_random,
    "mittel": choose_medium,
    "stark": choose_strong,
}
# Keys saved by earlier releases (games, settings, rooms) and the level they mean now.
STRENGTH_ALIASES = {"random": "leicht", "medium": "mittel", "strong": "stark", "vorausschauend": "stark"}
LEVEL_INFO = {
    "leicht": ("Legt irgendeine erlaubte Karte und vergisst manchmal „Mau“.",
               "Plays any allowed card and sometimes forgets to say Mau."),
    "mittel": ("Legt, wann immer es geht, hebt Buben auf und gibt 7er weiter.",
               "Plays whenever it can, saves its Jacks and passes 7s on."),
    "stark": ("Hält 7er zur Abwehr zurück, plant Asse und Farbwechsel und greift an, wenn jemand fast fertig ist.",
              "Keeps 7s for defence, plans Aces and suit changes, attacks when someone is nearly out."),
}
