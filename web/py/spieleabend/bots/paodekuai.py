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


PARAMS = {
    "control_cost": 0.25,   # cost of a planned play nobody is expected to beat
    "weak_cost": 1.0,       # cost of a planned play that will surely be beaten
    "bomb_cost": 0.1,       # a bomb in hand: strong, but costs points if kept
    "lead_low": 0.02,       # among equal plans lead the lower cards first
    "lead_long": 0.0,       # prefer leading plays that shed more cards
    "finish_bonus": 5.0,    # lead an unbeatable play when only one weak play remains
    "danger": 3.0,          # leading a beatable play a seat could go out with
    "answer_bomb": 0.2,     # answering with a bomb takes the lead and may earn the bonus
    "block": 1.0,           # answer high when the next seat is about to go out
    "answer_low": 0.01,     # among answers prefer the lower ones
}


class Table:
    """What the strong player knows in one decision: unseen cards and who holds how many."""

    def __init__(self, view, params):
        self.params = params
        self.seat = view["seat"]
        self.hand = view["hand"]
        self.sizes = view["hand_sizes"]
        unseen = list(FULL_COUNTS)
        for card in self.hand:
            unseen[RANK_VALUE[card[:-1]]] -= 1
        for card in view["played"]:
            unseen[RANK_VALUE[card[:-1]]] -= 1
        self.unseen = unseen
        total = 0
        for value in range(3, 16):
            total += unseen[value]
        self.total_unseen = total
        self.others = [self.sizes[(self.seat + 1) % 3], self.sizes[(self.seat + 2) % 3]]
        self.max_other = max(self.others)
        self.min_other = min(self.others)
        self.next_size = self.others[0]
        caps = _pass_caps(view, self.seat)
        # at_least[o][k][v]: chance that opponent o holds at least k cards of rank v.
        self.at_least = [self._holding_chances(o, caps) for o in range(2)]
        self._beat = {}
        self.memo = {}

    def _holding_chances(self, o, caps):
        """Return [k][v] chances that opponent o holds at least k cards of rank v."""
        mine = self.others[o]
        theirs = self.others[1 - o]
        q = mine / (mine + theirs) if mine + theirs else 0.0
        r = 1.0 - q
        my_caps = caps[o]
        their_caps = caps[1 - o]
        table = [[0.0] * 16 for _ in range(5)]
        for value in range(3, 16):
            u = self.unseen[value]
            if u <= 0:
                continue
            hi = min(u, my_caps[value])
            lo = max(0, u - their_caps[value])
            if lo > hi:
                lo = hi
            # Binomial split of the u unseen cards, limited to what the passes allow.
            weights = [0.0] * (u + 1)
            total = 0.0
            for k in range(lo, hi + 1):
                weights[k] = _binomial(u, k) * (q ** k) * (r ** (u - k))
                total += weights[k]
            if total <= 0.0:
                weights[hi] = 1.0
                total = 1.0
            tail = 0.0
            for k in range(u, 0, -1):
                tail += weights[k]
                table[k][value] = tail / total
        return table

    def beat_chance(self, shape, top, length):
        """Return the chance that some opponent can beat this play with the same shape or a bomb."""
        key = (shape, top, length)
        found = self._beat.get(key)
        if found is not None:
            return found
        miss = 1.0
        for o in range(2):
            if self.others[o] < length and shape != "bomb":
                continue
            miss *= 1.0 - self._opponent_beats(o, shape, top, length)
        result = 1.0 - miss
        self._beat[key] = result
        return result

    def _opponent_beats(self, o, shape, top, length):
        chances = self.at_least[o]
        miss = 1.0
        if shape == "bomb":
            for value in range(top + 1, 14):
                miss *= 1.0 - chances[4][value]
            if top < ACE:
                miss *= 1.0 - chances[3][ACE]
            return 1.0 - miss
        if shape in ("single", "pair", "triple"):
            k = length
            limit = 16 if k == 1 else (15 if k == 2 else 14)
            for value in range(top + 1, limit):
                miss *= 1.0 - chances[k][value]
            return 1.0 - miss
        per = 1 if shape == "straight" else 2
        ranks = length // per
        for high in range(top + 1, SEQUENCE_TOP + 1):
            low = high - ranks + 1
            p = 1.0
            for value in range(low, high + 1):
                p *= chances[per][value]
            miss *= 1.0 - p
        return 1.0 - miss

    def group_cost(self, shape, top, length):
        """Return what one planned play costs the hand."""
        params = self.params
        if shape == "bomb":
            return params["bomb_cost"]
        p = self.beat_chance(shape, top, length)
        return params["control_cost"] + (params["weak_cost"] - params["control_cost"]) * p

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


def _pass_caps(view, seat):
    """Return for both opponents (next seat first) the most cards of each rank their passes allow.

    A seat passes only without a legal answer, so a pass over a single rank r
    shows that it holds nothing above r, over a pair r no pair above r, and
    over any ordinary play no bomb at all. Hands only shrink, so this stays true.
    """
    caps = [[4] * 16, [4] * 16]
    tricks = view["tricks"] + [view["trick"]]
    for trick in tricks:
        top = None
        for entry in trick:
            if not entry["pass"]:
                top = entry["play"]
                continue
            o = (entry["seat"] - seat) % 3 - 1
            if o < 0 or top is None:
                continue
            cap = caps[o]
            shape = top["shape"]
            rank = top["rank"]
            if shape == "bomb":
                for value in range(top["bomb"] + 1, 14):
                    if cap[value] > 3:
                        cap[value] = 3
                if top["bomb"] < ACE and cap[ACE] > 2:
                    cap[ACE] = 2
                continue
            for value in range(3, 14):
                if cap[value] > 3:
                    cap[value] = 3
            if cap[ACE] > 2:
                cap[ACE] = 2
            if shape == "single":
                for value in range(rank + 1, 16):
                    cap[value] = 0
            elif shape == "pair":
                for value in range(rank + 1, 15):
                    if cap[value] > 1:
                        cap[value] = 1
            elif shape == "triple":
                for value in range(rank + 1, 14):
                    if cap[value] > 2:
                        cap[value] = 2
    return caps


def _binomial(n, k):
    result = 1
    for i in range(k):
        result = result * (n - i) // (i + 1)
    return result


def score_action(table, view, action, hand_counts):
    """Return the heuristic cost of an action: lower is better."""
    params = table.params
    control = params["control_cost"]
    hand_size = len(table.hand)
    leading = view["top"] is None
    removed = counts_of(action_cards(action))
    shape, top, length, per = group_shape(removed)
    remaining = [hand_counts[v] - removed[v] for v in range(16)]
    rest = table.plan_cost(remaining)
    score = rest
    p = table.beat_chance(shape, top, length) if shape != "bomb" else 0.0
    if leading:
        score += params["lead_low"] * top - params["lead_long"] * length
        if p < 0.05 and rest < params["weak_cost"] + 1e-9 + control * hand_size and \
                _weak_left(table, remaining) <= 1:
            # Only one weak play is left after this one: play the sure ones first.
            score -= params["finish_bonus"]
        if shape != "bomb" and length >= table.min_other:
            # A seat could answer with its last cards and go out.
            score += params["danger"] * p * (1.0 if length == table.min_other else 0.2)
    else:
        score += params["answer_low"] * top
        if shape == "bomb":
            score -= params["answer_bomb"]
        if table.next_size <= length and table.next_size <= 2:
            score += params["block"] * p
    return score


def strong_choose(view, rng, params=PARAMS):
    """Choose by planning the hand: weakest plays first, control kept, seats near the end blocked."""
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    if "next" in legal:
        return "next"
    table = Table(view, params)
    hand_counts = counts_of(table.hand)
    best = None
    best_score = None
    for action in legal:
        if len(action_cards(action)) == len(table.hand):
            return action
        score = score_action(table, view, action, hand_counts)
        if best_score is None or score < best_score:
            best_score = score
            best = action
    return best


def _weak_left(table, counts):
    """Return roughly how many beatable plays the cheapest plan of the remaining hand holds."""
    total = table.plan_cost(counts)
    return int(total + 0.5)


STRENGTHS = {"random": random_choose, "strong": strong_choose}
