"""Computer players for Pao De Kuai: "random" and "strong".

Both see only their seat's view. The strong player splits its hand into the
fewest, cheapest plays (a play nobody can beat any more costs less, since it
wins the lead back), leads its weakest plays first, answers with the play that
hurts its hand least, blocks a seat about to go out, and plays out its
unbeatable plays first once only one weak play is left.
"""

from spieleabend.games.paodekuai import RANK_VALUE, DECK, ACE, SEQUENCE_TOP

# How many of each rank value the 48-card deck holds.
FULL_COUNTS = [0] * 16
for _card in DECK:
    FULL_COUNTS[RANK_VALUE[_card[:-1]]] += 1

CONTROL_COST = 0.25       # a play nobody can beat: it still has to be played, but keeps the lead
WEAK_COST = 1.0
LOW_RANK_WEIGHT = 0.02    # among equal plans lead the lowest cards first
BOMB_KEEP_COST = 0.1      # a bomb kept to the end costs points; a bomb played keeps the lead


def random_choose(view, rng):
    """Play a uniformly random legal action (never ends the table)."""
    legal = [action for action in view["legal"] if action != "stop"]
    return rng.choice(legal)


def counts_of(cards):
    """Return a list of 16 rank counts (index = rank value) of some cards."""
    counts = [0] * 16
    for card in cards:
        counts[RANK_VALUE[card[:-1]]] += 1
    return counts


def action_cards(action):
    """Return the cards of a 'play ...' action (empty list for other actions)."""
    words = action.split()
    if words[0] != "play":
        return []
    return words[1:]


def group_shape(counts_removed):
    """Describe the removed cards of one canonical play as (shape, top, length, per_rank)."""
    low = 0
    high = 0
    per = 0
    n = 0
    for value in range(3, 16):
        c = counts_removed[value]
        if c:
            if not low:
                low = value
            high = value
            per = c
            n += c
    if low == high:
        if per == 4 or (high == ACE and per == 3):
            return ("bomb", high, n, per)
        return (("single", "pair", "triple")[per - 1], high, n, per)
    if per == 1:
        return ("straight", high, n, 1)
    return ("run", high, n, 2)


def min_plays(counts, memo):
    """Return the fewest plays that empty a hand given as rank counts (ignores the opponents)."""
    key = tuple(counts)
    found = memo.get(key)
    if found is not None:
        return found
    low = 3
    while low < 16 and not counts[low]:
        low += 1
    if low == 16:
        memo[key] = 0
        return 0
    keep = counts[low]
    counts[low] = 0
    best = 1 + min_plays(counts, memo)
    counts[low] = keep
    for per_rank, min_len in ((1, 5), (2, 2)):
        high = low
        while high <= SEQUENCE_TOP and counts[high] >= per_rank:
            high += 1
        # ranks low .. high-1 can carry this sequence
        if high - low >= min_len:
            for value in range(low, low + min_len - 1):
                counts[value] -= per_rank
            for top in range(low + min_len - 1, high):
                counts[top] -= per_rank
                result = 1 + min_plays(counts, memo)
                if result < best:
                    best = result
            for value in range(low, high):
                counts[value] += per_rank
    memo[key] = best
    return best


class Table:
    """What the strong player knows in one decision: unseen cards and who holds how many."""

    def __init__(self, view):
        self.seat = view["seat"]
        self.hand = view["hand"]
        self.sizes = view["hand_sizes"]
        unseen = list(FULL_COUNTS)
        for card in self.hand:
            unseen[RANK_VALUE[card[:-1]]] -= 1
        for card in view["played"]:
            unseen[RANK_VALUE[card[:-1]]] -= 1
        self.unseen = unseen
        others = [self.sizes[s] for s in range(3) if s != self.seat]
        self.max_other = max(others)
        self.min_other = min(others)
        self.next_size = self.sizes[(self.seat + 1) % 3]
        self._beatable = {}
        self.memo = {}

    def beatable(self, shape, top, length):
        """Return whether some unseen cards could beat this play with the same shape (bombs aside)."""
        key = (shape, top, length)
        found = self._beatable.get(key)
        if found is not None:
            return found
        unseen = self.unseen
        result = False
        if length <= self.max_other:
            if shape == "single":
                result = any(unseen[v] >= 1 for v in range(top + 1, 16))
            elif shape == "pair":
                result = any(unseen[v] >= 2 for v in range(top + 1, 15))
            elif shape == "triple":
                result = any(unseen[v] >= 3 for v in range(top + 1, 14))
            elif shape == "bomb":
                strength = top
                result = any(unseen[v] == 4 for v in range(strength + 1, 14)) or \
                    (strength < ACE and unseen[ACE] == 3)
            else:
                per = 1 if shape == "straight" else 2
                ranks = length // per
                run = 0
                for v in range(top - ranks + 2, SEQUENCE_TOP + 1):
                    run = run + 1 if unseen[v] >= per else 0
                    if run >= ranks and v > top:
                        result = True
                        break
        if shape == "bomb" and length > self.max_other:
            result = False
        self._beatable[key] = result
        return result

    def group_cost(self, shape, top, length):
        """Return what one planned play costs the hand."""
        if shape == "bomb":
            return BOMB_KEEP_COST if not self.beatable(shape, top, length) else CONTROL_COST
        if self.beatable(shape, top, length):
            return WEAK_COST + LOW_RANK_WEIGHT * (15 - top)
        return CONTROL_COST

    def plan_cost(self, counts):
        """Return the cheapest total cost of splitting a hand (rank counts) into plays."""
        key = tuple(counts)
        memo = self.memo
        found = memo.get(key)
        if found is not None:
            return found
        low = 3
        while low < 16 and not counts[low]:
            low += 1
        if low == 16:
            memo[key] = 0.0
            return 0.0
        keep = counts[low]
        counts[low] = 0
        if keep == 4 or (low == ACE and keep == 3):
            shape = "bomb"
        else:
            shape = ("single", "pair", "triple")[keep - 1]
        best = self.group_cost(shape, low, keep) + self.plan_cost(counts)
        counts[low] = keep
        for per_rank, min_len, name in ((1, 5, "straight"), (2, 2, "run")):
            high = low
            while high <= SEQUENCE_TOP and counts[high] >= per_rank:
                high += 1
            if high - low >= min_len:
                for value in range(low, low + min_len - 1):
                    counts[value] -= per_rank
                for top in range(low + min_len - 1, high):
                    counts[top] -= per_rank
                    length = (top - low + 1) * per_rank
                    result = self.group_cost(name, top, length) + self.plan_cost(counts)
                    if result < best:
                        best = result
                for value in range(low, high):
                    counts[value] += per_rank
        memo[key] = best
        return best

    def weak_groups(self, counts):
        """Return how many weak (beatable) plays the cheapest plan of a hand holds."""
        total = self.plan_cost(counts)
        # Each weak play costs about 1, a control play about CONTROL_COST.
        return int(total + 0.5)


def strong_choose(view, rng):
    """Choose by planning the hand: weakest plays first, control kept, seats near the end blocked."""
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    if "next" in legal:
        return "next"
    table = Table(view)
    hand_counts = counts_of(table.hand)
    hand_size = len(table.hand)
    leading = view["top"] is None
    best = None
    best_score = None
    for action in legal:
        cards = action_cards(action)
        if len(cards) == hand_size:
            return action
        removed = counts_of(cards)
        shape, top, length, per = group_shape(removed)
        remaining = [hand_counts[v] - removed[v] for v in range(16)]
        score = table.plan_cost(remaining)
        control = not table.beatable(shape, top, length)
        if leading:
            score += LOW_RANK_WEIGHT * top
            rest = table.plan_cost(remaining)
            if control and rest < WEAK_COST + CONTROL_COST * hand_size:
                # Only one weak play left after this one: play unbeatable plays first.
                if _weak_count(table, remaining) <= 1:
                    score -= 5
            if not control and length >= table.min_other and shape != "bomb":
                # A seat could answer with its last cards and go out.
                score += 3 if length == table.min_other else 0.5
        else:
            if shape == "bomb":
                score -= 0.2
            if not control and table.next_size <= length and table.next_size <= 2:
                score += 1 + 0.1 * (15 - top)
            score += LOW_RANK_WEIGHT * top * 0.5
        if best_score is None or score < best_score:
            best_score = score
            best = action
    return best


def _weak_count(table, counts):
    """Return the number of beatable plays in the cheapest plan of the remaining hand."""
    total = table.plan_cost(counts)
    return int(total + 0.3)


STRENGTHS = {"random": random_choose, "strong": strong_choose}
