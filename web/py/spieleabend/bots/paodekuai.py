"""Computer players for Pao De Kuai: leicht (random), mittel (greedy) and stark.

All see only their seat's view. The greedy player plays the option that
leaves the fewest plays in its hand. The strong player thinks in rank counts
(suits never matter after the deal's first play). It first looks for a
certain win: a play nobody can beat any more (given the unseen cards and what
the passes showed) after which at most one of its plays could be beaten. Else
it shortlists the options that leave the fewest plays in its hand, then plays
every shortlisted option out on many guessed deals: the unseen cards split at
random between the two opponents, as far as their passes allow (a seat passes
only without an answer, so a pass over a single 9 shows it holds nothing
above 9, and a pass over any ordinary play shows it holds no bomb). In these
playouts every opponent follows a quick rule (lead from the plan with the
fewest plays, answer with the play that leaves the fewest), and the player
itself also plays its sure plays first once at most one of its plays can be
beaten. The option that went out first most often is chosen. A fixed budget
of simulated work bounds the time; decisions are reproducible from the view
and the generator alone. While both opponents hold more than 4 cards the
budget plays out only one or two guesses, so a small network, fitted to the
results of real continuations of its decisions (the true hands played on by
the real players, bench/paodekuai_real.py) and half the score of a network
fitted to a long search's win rates (bench/paodekuai_distill.py), scores the
shortlist first: the two best-scored options are played out and the score
counts as 20 guesses' wins. Once an opponent holds 4 cards or fewer, all
three are played out and the score counts as 3 guesses' wins.

The two computers at a table share nothing: each sees only its own view.
"""

from spieleabend.games.paodekuai import RANK_VALUE, DECK, ACE, SEQUENCE_TOP, classify
from spieleabend.bots import network_score
from spieleabend.bots.paodekuai_weights import HIDDEN, HIDDEN_BIAS, OUTPUT

# Simulated plays are lists [kind, low, high, per_rank, bomb_strength].
# Groups of one rank are coded by their size, then sequences and bombs.
SINGLE = 1
PAIR = 2
TRIPLE = 3
STRAIGHT = 5
RUN = 6
BOMB = 9
HEAVENLY = 16            # the four 3s as the deal's first play: nothing beats them

# How many of each rank value (3..15) the 48-card deck holds.
FULL_COUNTS = [0] * 16
for _card in DECK:
    FULL_COUNTS[RANK_VALUE[_card[:-1]]] += 1

# A hand of rank counts is also kept as one int (base 5, one digit per rank):
# the key of the plan memo, cheaper than tuples and below 2**31 for Brython.
POW = [0] * 16
for _value in range(3, 16):
    POW[_value] = 5 ** (_value - 3)

NEXT_SEAT = [1, 2, 0]    # NEXT_SEAT[s] plays after seat s (a list: `%` is slow in Brython)
SHORTLIST = 3            # options played out per decision
MAX_SAMPLES = 20         # guessed deals per option at most
HARD_BUDGET_FACTOR = 2   # a guess that would take the work past this many budgets is dropped
WORK_BUDGET = 300        # 2 per simulated move + 1 per new plan entry, per decision (phone budget: 100 ms)
# The learned score (a small network fitted to real continuations, bench/paodekuai_real.py) counts as
# this many guesses' playout wins: with big hands the budget plays out about one guess, too few to tell
# the options apart. Late in a deal the playouts see enough guesses and the score weighs little.
LEARNED_WORTH = 20
LEARNED_ABOVE = 4        # the score cuts the shortlist and counts fully while both opponents hold more cards than this
LEARNED_LATE_WORTH = 3   # its worth in guesses once an opponent holds LEARNED_ABOVE cards or fewer


def random_choose(view, rng):
    """Play a uniformly random legal action (never ends the table)."""
    legal = [action for action in view["legal"] if action != "stop"]
    return rng.choice(legal)


def greedy_choose(view, rng):
    """Play the option that leaves the fewest plays in hand (lowest top rank on ties)."""
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    if "next" in legal:
        return "next"
    hand_counts = counts_of(view["hand"])
    memo = {}
    best = None
    best_key = None
    for action in legal:
        removed = counts_of(action_cards(action))
        remaining = [hand_counts[v] - removed[v] for v in range(16)]
        top = 0
        for v in range(16):
            if removed[v]:
                top = v
        key = [plan(remaining, key_of(remaining), memo)[0], top]
        if best_key is None or key < best_key:
            best_key = key
            best = action
    return best


def counts_of(cards):
    """Return a list of 16 rank counts (index = rank value) of some cards."""
    counts = [0] * 16
    for card in cards:
        counts[RANK_VALUE[card[:-1]]] += 1
    return counts


def key_of(counts):
    """Return the memo key of a hand given as rank counts."""
    key = 0
    for value in range(3, 16):
        key += counts[value] * POW[value]
    return key


def action_cards(action):
    """Return the cards of a 'play ...' action (empty list for other actions)."""
    words = action.split()
    if words[0] != "play":
        return []
    return words[1:]


def make_play(low, high, per):
    """Return the simulated play of `per` cards of each rank low..high."""
    if low == high:
        if per == 4 or (low == ACE and per == 3):
            return [BOMB, low, low, per, low]
        return [per, low, low, per, 0]
    return [STRAIGHT if per == 1 else RUN, low, high, per, 0]


def play_of(counts):
    """Return the simulated play made of some cards given as rank counts."""
    low = 0
    high = 0
    per = 0
    for value in range(3, 16):
        if counts[value]:
            if not low:
                low = value
            high = value
            per = counts[value]
    return make_play(low, high, per)


def plan(counts, key, memo):
    """Return [fewest plays that empty the hand, low, high, per] of the plan's play holding its lowest rank.

    Every rank's cards form one play (single, pair, triple or bomb) unless they
    take part in a straight or a run; the lowest rank either closes as its own
    play or starts a sequence, so trying those choices finds the fewest plays.
    """
    # `in` first: Brython's dict.get raises and catches a KeyError on every miss (it was a third
    # of the decision time in the browser).
    if key in memo:
        return memo[key]
    low = 3
    while low < 16 and not counts[low]:
        low += 1
    if low == 16:
        result = [0, 0, 0, 0]
        memo[key] = result
        return result
    keep = counts[low]
    counts[low] = 0
    best = plan(counts, key - keep * POW[low], memo)[0] + 1
    counts[low] = keep
    choice_high = low
    choice_per = keep
    for per, min_len in ((2, 2), (1, 5)):
        high = low
        while high <= SEQUENCE_TOP and counts[high] >= per:
            high += 1
        if high - low >= min_len:
            sub = key
            for value in range(low, low + min_len - 1):
                counts[value] -= per
                sub -= per * POW[value]
            for top in range(low + min_len - 1, high):
                counts[top] -= per
                sub -= per * POW[top]
                plays = plan(counts, sub, memo)[0] + 1
                if plays < best:
                    best = plays
                    choice_high = top
                    choice_per = per
            for value in range(low, high):
                counts[value] += per
    result = [best, low, choice_high, choice_per]
    memo[key] = result
    return result


def plan_groups(counts, key, memo):
    """Return the plays of the fewest-plays plan of a hand, lowest first."""
    groups = []
    while True:
        entry = plan(counts, key, memo)
        if not entry[0]:
            break
        low = entry[1]
        high = entry[2]
        per = entry[3]
        groups.append(make_play(low, high, per))
        for value in range(low, high + 1):
            counts[value] -= per
            key -= per * POW[value]
    for play in groups:
        for value in range(play[1], play[2] + 1):
            counts[value] += play[3]
    return groups


def answers(counts, top):
    """Return the simulated plays of a hand that beat `top` (same shape higher, or a stronger bomb)."""
    kind = top[0]
    found = []
    if kind != BOMB:
        high = top[2]
        if kind <= TRIPLE:
            limit = 16 if kind == SINGLE else (15 if kind == PAIR else 14)
            for value in range(high + 1, limit):
                if counts[value] >= kind:
                    found.append([kind, value, value, kind, 0])
        else:
            per = 1 if kind == STRAIGHT else 2
            ranks = high - top[1] + 1
            run = 0
            for value in range(high - ranks + 2, SEQUENCE_TOP + 1):
                if counts[value] >= per:
                    run += 1
                    if run >= ranks and value > high:
                        found.append([kind, value - ranks + 1, value, per, 0])
                else:
                    run = 0
        strength = 0
    else:
        strength = top[4]
    for value in range(strength + 1, 14):
        if counts[value] == 4:
            found.append([BOMB, value, value, 4, value])
    if strength < ACE and counts[ACE] == 3:
        found.append([BOMB, ACE, ACE, 3, ACE])
    return found


def can_beat(counts, top, size):
    """Return whether a hand (rank counts, at most `size` cards to spend) can beat `top`."""
    kind = top[0]
    if kind != BOMB:
        high = top[2]
        if (high - top[1] + 1) * top[3] <= size:
            if kind <= TRIPLE:
                limit = 16 if kind == SINGLE else (15 if kind == PAIR else 14)
                for value in range(high + 1, limit):
                    if counts[value] >= kind:
                        return True
            else:
                per = top[3]
                ranks = high - top[1] + 1
                run = 0
                for value in range(high - ranks + 2, SEQUENCE_TOP + 1):
                    if counts[value] >= per:
                        run += 1
                        if run >= ranks and value > high:
                            return True
                    else:
                        run = 0
        strength = 0
    else:
        strength = top[4]
    if size >= 4:
        for value in range(strength + 1, 14):
            if counts[value] == 4:
                return True
    return size >= 3 and strength < ACE and counts[ACE] == 3


def greedy_move(counts, key, top, memo):
    """Return the quick rule's play: lead from the fewest-plays plan, answer leaving the fewest plays.

    With two plays left it leads the higher one first, the likelier to keep the lead.
    """
    if top is None:
        entry = plan(counts, key, memo)
        if entry[0] != 2:
            return make_play(entry[1], entry[2], entry[3])
        low = entry[1]
        high = entry[2]
        per = entry[3]
        sub = key
        for value in range(low, high + 1):
            counts[value] -= per
            sub -= per * POW[value]
        other = plan(counts, sub, memo)
        for value in range(low, high + 1):
            counts[value] += per
        return make_play(other[1], other[2], other[3])
    kind = top[0]
    if kind == STRAIGHT or kind == RUN:
        return _best_answer(counts, key, answers(counts, top), memo)
    # Groups and bombs, the common case, without building every option (calls are slow in Brython).
    values = []
    if kind != BOMB:
        limit = 16 if kind == SINGLE else (15 if kind == PAIR else 14)
        for value in range(top[2] + 1, limit):
            if counts[value] >= kind:
                values.append(value)
        strength = 0
    else:
        strength = top[4]
    bombs = []
    for value in range(strength + 1, 14):
        if counts[value] == 4:
            bombs.append(value)
    if strength < ACE and counts[ACE] == 3:
        bombs.append(ACE)
    if len(values) + len(bombs) < 2:
        if values:
            return [kind, values[0], values[0], kind, 0]
        return make_play(bombs[0], bombs[0], counts[bombs[0]]) if bombs else None
    best_value = 0
    best_rank = 0
    best_is_bomb = False
    for value in values:
        left = counts[value]
        counts[value] = left - kind
        rank = plan(counts, key - kind * POW[value], memo)[0] * 100 + value
        counts[value] = left
        if not best_value or rank < best_rank:
            best_value = value
            best_rank = rank
    for value in bombs:
        left = counts[value]
        counts[value] = 0
        rank = plan(counts, key - left * POW[value], memo)[0] * 100 + value
        counts[value] = left
        if not best_value or rank < best_rank:
            best_value = value
            best_rank = rank
            best_is_bomb = True
    if best_is_bomb:
        return make_play(best_value, best_value, counts[best_value])
    return [kind, best_value, best_value, kind, 0]


def _best_answer(counts, key, options, memo):
    """Return the option that leaves the fewest plays (lowest top on ties), or None."""
    if len(options) < 2:
        return options[0] if options else None
    best = None
    best_rank = 0
    for play in options:
        per = play[3]
        sub = key
        for value in range(play[1], play[2] + 1):
            counts[value] -= per
            sub -= per * POW[value]
        rank = plan(counts, sub, memo)[0] * 100 + play[2]
        for value in range(play[1], play[2] + 1):
            counts[value] += per
        if best is None or rank < best_rank:
            best = play
            best_rank = rank
    return best


def sure_first_lead(counts, key, first, second, memo):
    """Lead knowing the (guessed) opponent hands: sure plays first once at most one play can be beaten."""
    groups = plan_groups(counts, key, memo)
    weak = []
    sure = []
    for play in groups:
        if can_beat(first, play, 16) or can_beat(second, play, 16):
            weak.append(play)
        else:
            sure.append(play)
    if len(weak) <= 1:
        return sure[0] if sure else weak[0]
    return groups[0]


def rollout(hands, keys, sizes, turn, top, top_seat, me, memo, work_left):
    """Play a deal out; return (first seat out, or -1 when cut off, moves simulated).

    Cut off once 2 per move plus the plan memo's size reach `work_left`: with big hands one
    playout can build hundreds of plan entries.
    """
    passes = 0
    steps = 0
    first = hands[NEXT_SEAT[me]]
    second = hands[NEXT_SEAT[NEXT_SEAT[me]]]
    while 2 * steps + len(memo) < work_left:
        steps += 1
        counts = hands[turn]
        if turn == me and top is None:
            play = sure_first_lead(counts, keys[turn], first, second, memo)
        else:
            play = greedy_move(counts, keys[turn], top, memo)
        if play is None:
            passes += 1
            if passes == 2:
                top = None
                turn = top_seat
                passes = 0
            else:
                turn = NEXT_SEAT[turn]
            continue
        per = play[3]
        key = keys[turn]
        for value in range(play[1], play[2] + 1):
            counts[value] -= per
            key -= per * POW[value]
        keys[turn] = key
        sizes[turn] -= (play[2] - play[1] + 1) * per
        if sizes[turn] <= 0:
            return turn, steps
        top = play
        top_seat = turn
        passes = 0
        turn = NEXT_SEAT[turn]
    return -1, steps


def pass_caps(view, seat):
    """Return for both opponents (next seat first) the most cards of each rank their passes allow.

    A seat passes only without a legal answer: a pass over a single shows it
    holds nothing higher, over a pair no higher pair, over a triple no higher
    triple, and over any ordinary play no bomb. Hands only shrink, so what a
    pass showed stays true for the rest of the deal.
    """
    caps = [[4] * 16, [4] * 16]
    for trick in view["tricks"] + [view["trick"]]:
        top = None
        for entry in trick:
            if not entry["pass"]:
                top = entry["play"]
                continue
            other = (entry["seat"] - seat) % 3 - 1
            if other < 0 or top is None:
                continue
            cap = caps[other]
            shape = top["shape"]
            rank = top["rank"]
            stronger = top["bomb"] if shape == "bomb" else 0
            for value in range(stronger + 1, 14):
                if cap[value] > 3:
                    cap[value] = 3
            if stronger < ACE and cap[ACE] > 2:
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


def sample_hands(unseen, sizes, caps, rng):
    """Deal the unseen cards to the two opponents at random, keeping sizes and (where possible) caps."""
    shuffled = []
    for value in range(3, 16):
        for _ in range(unseen[value]):
            shuffled.append(value)
    rng.shuffle(shuffled)
    first_caps = caps[0]
    second_caps = caps[1]
    limits = [4] * 16
    limited = False
    for value in range(3, 16):
        limit = first_caps[value] if first_caps[value] < second_caps[value] else second_caps[value]
        if limit < 4:
            limits[value] = limit
            limited = True
    hands = [[0] * 16, [0] * 16]
    first = hands[0]
    second = hands[1]
    left = [sizes[0], sizes[1]]
    if limited:
        # The most limited ranks are placed first, while both hands still have room,
        # each card at random in proportion to the room left.
        for limit in range(4):
            for value in shuffled:
                if limits[value] != limit:
                    continue
                fits_first = left[0] > 0 and first[value] < first_caps[value]
                fits_second = left[1] > 0 and second[value] < second_caps[value]
                if fits_first and fits_second:
                    other = 0 if rng.below(left[0] + left[1]) < left[0] else 1
                elif fits_first or fits_second:
                    other = 0 if fits_first else 1
                else:
                    other = 0 if left[0] > 0 else 1
                hands[other][value] += 1
                left[other] -= 1
    # The other cards are already in random order: the first ones fill the first hand.
    for value in shuffled:
        if limits[value] == 4:
            if left[0] > 0:
                first[value] += 1
                left[0] -= 1
            else:
                second[value] += 1
    return hands


def beatable(play, possible, sizes):
    """Return whether an opponent could beat `play` with cards it may hold (`possible`: counts per opponent)."""
    return can_beat(possible[0], play, sizes[0]) or can_beat(possible[1], play, sizes[1])


def sure_win(options, possible, sizes, memo):
    """Return the action of an option that wins for certain, or None.

    A play is sure when no opponent can beat it with any cards it may still
    hold; a sure play keeps (or takes) the lead, so if the option is sure and
    at most one play of the rest is not, the deal is won by playing the sure
    ones first and that one last.
    """
    for option in options:
        if beatable(option[3], possible, sizes):
            continue
        weak = 0
        for group in plan_groups(option[4], option[5], memo):
            if beatable(group, possible, sizes):
                weak += 1
                if weak > 1:
                    break
        if weak <= 1:
            return option[2]
    return None


def option_inputs(option, least, mine, possible, sizes, memo):
    """Return the learned score's inputs of a shortlisted option: what it plays, keeps and leaves beatable."""
    play = option[3]
    rest = option[4]
    kind = play[0]
    weak = 0
    sure = 0
    weak_top = 0
    for group in plan_groups(rest, option[5], memo):
        if beatable(group, possible, sizes):
            weak += 1
            if group[2] > weak_top:
                weak_top = group[2]
        else:
            sure += 1
    open_play = 1 if beatable(play, possible, sizes) else 0
    bombs = 0
    for value in range(3, 14):
        if rest[value] == 4:
            bombs += 1
    if rest[ACE] == 3:
        bombs += 1
    breaks_bomb = 0
    breaks_group = 0
    if kind != BOMB:
        for value in range(play[1], play[2] + 1):
            if mine[value] == 4 or (value == ACE and mine[value] == 3):
                breaks_bomb = 1
            elif rest[value]:
                breaks_group = 1
    # Ranks above the play's top of which an opponent may hold enough to answer it.
    beaters = 0
    if kind <= TRIPLE:
        limit = 16 if kind == SINGLE else (15 if kind == PAIR else 14)
        for value in range(play[2] + 1, limit):
            if possible[0][value] >= kind or possible[1][value] >= kind:
                beaters += 1
    elif open_play:
        beaters = 1
    lowest = 3
    while lowest < 16 and not mine[lowest]:
        lowest += 1
    rest_top = 0
    for value in range(3, 16):
        if rest[value]:
            rest_top = value
    smaller = sizes[0] if sizes[0] < sizes[1] else sizes[1]
    near = 1 if smaller <= 2 else 0
    scale = smaller / 16.0
    more = option[0] // 100 - least
    cards = (play[2] - play[1] + 1) * play[3]
    return [more, weak, 1 if weak >= 2 else 0, 1 if weak <= 1 else 0, sure, open_play, beaters / 12.0,
            (play[2] - 3) / 12.0, cards / 4.0, 1 if kind == BOMB else 0, bombs, breaks_bomb, breaks_group,
            rest[15], rest[ACE], (weak_top - 3) / 12.0 if weak else 0, (rest_top - 3) / 12.0 if rest_top else 0,
            1 if play[1] == lowest else 0, 1 if kind == SINGLE else 0, 1 if kind == PAIR else 0,
            1 if kind == STRAIGHT or kind == RUN else 0,
            open_play * near, weak * scale, more * scale, open_play * scale, cards * scale / 4.0,
            1 if sizes[0] <= 2 else 0, open_play if sizes[0] <= 2 else 0]


def learned_scores(ranked, mine, possible, sizes, leading, memo):
    """Return the learned score of each shortlisted option (about the win rate it adds)."""
    least = ranked[0][0] // 100
    held = 0
    for value in range(3, 16):
        held += mine[value]
    smaller = sizes[0] if sizes[0] < sizes[1] else sizes[1]
    shared = [smaller / 16.0, sizes[0] / 16.0, 1 if leading else 0, held / 16.0, least / 8.0,
              1 if smaller <= 2 else 0, 1 if smaller <= 5 else 0]
    width = len(HIDDEN[0]) - len(shared)
    # The decision's inputs are the same for every option: their share of each unit is summed once.
    base = []
    for unit in range(len(HIDDEN)):
        row = HIDDEN[unit]
        act = HIDDEN_BIAS[unit]
        for index in range(len(shared)):
            act += row[width + index] * shared[index]
        base.append(act)
    scores = []
    for option in ranked:
        scores.append(network_score(option_inputs(option, least, mine, possible, sizes, memo), HIDDEN, base, OUTPUT))
    return scores


def play_out(ranked, seat, others, sizes, unseen, caps, memo, rng, max_samples, budget, limit=None):
    """Play every option out on the same guesses until the budget is spent; return (wins per option, guesses)."""
    wins = [0] * len(ranked)
    steps = 0
    samples = 0
    done = 0
    # Work = 2 per simulated move + 1 per plan entry (the costly part with big hands).
    if limit is None:
        limit = HARD_BUDGET_FACTOR * budget
    while samples < max_samples and 2 * steps + len(memo) < budget:
        samples += 1
        guessed = sample_hands(unseen, [sizes[others[0]], sizes[others[1]]], caps, rng)
        guessed_keys = [key_of(guessed[0]), key_of(guessed[1])]
        sample_wins = [0] * len(ranked)
        cut = False
        for index in range(len(ranked)):
            option = ranked[index]
            hands = [None, None, None]
            keys = [0, 0, 0]
            option_sizes = [0, 0, 0]
            hands[seat] = list(option[4])
            keys[seat] = option[5]
            option_sizes[seat] = option[6]
            for k in range(2):
                hands[others[k]] = list(guessed[k])
                keys[others[k]] = guessed_keys[k]
                option_sizes[others[k]] = sizes[others[k]]
            winner, used = rollout(hands, keys, option_sizes, others[0], option[3], seat, seat,
                                   memo, limit - 2 * steps)
            steps += used
            if winner < 0:
                cut = True
                break
            if winner == seat:
                sample_wins[index] = 1
        if cut:
            # A guess not played out for every option would favour the options played first.
            break
        done += 1
        for index in range(len(ranked)):
            wins[index] += sample_wins[index]
    return wins, done


def strong_choose(view, rng, shortlist=SHORTLIST, max_samples=MAX_SAMPLES, budget=WORK_BUDGET):
    """Shortlist by fewest plays left, play the shortlist out on guessed deals, keep the best."""
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    if "next" in legal:
        return "next"
    seat = view["seat"]
    hand = view["hand"]
    mine = counts_of(hand)
    my_key = key_of(mine)
    memo = {}
    ranked = []
    for action in legal:
        cards = action_cards(action)
        if len(cards) == len(hand):
            return action
        removed = counts_of(cards)
        play = play_of(removed)
        if view["opening"] and play[0] == BOMB and play[1] == 3:
            play[4] = HEAVENLY
        rest = [mine[value] - removed[value] for value in range(16)]
        rest_key = my_key - key_of(removed)
        plays = plan(rest, rest_key, memo)[0]
        ranked.append([plays * 100 + play[2], len(ranked), action, play, rest, rest_key,
                       len(hand) - len(cards)])
    ranked.sort()
    unseen = list(FULL_COUNTS)
    for card in hand:
        unseen[RANK_VALUE[card[:-1]]] -= 1
    for card in view["played"]:
        unseen[RANK_VALUE[card[:-1]]] -= 1
    sizes = view["hand_sizes"]
    others = [(seat + 1) % 3, (seat + 2) % 3]
    caps = pass_caps(view, seat)
    possible = [[min(unseen[v], caps[k][v]) for v in range(16)] for k in range(2)]
    sure = sure_win(ranked, possible, [sizes[others[0]], sizes[others[1]]], memo)
    if sure is not None:
        return sure
    ranked = ranked[:shortlist]
    if len(ranked) == 1:
        return ranked[0][2]
    opp_sizes = [sizes[others[0]], sizes[others[1]]]
    learned = learned_scores(ranked, mine, possible, opp_sizes, view["top"] is None, memo)
    worth = LEARNED_LATE_WORTH
    if opp_sizes[0] > LEARNED_ABOVE and opp_sizes[1] > LEARNED_ABOVE:
        worth = LEARNED_WORTH
        # Only the two best-scored options are played out: the one or two guesses the budget
        # allows with big hands then compare two options instead of three.
        first = 0
        for index in range(1, len(ranked)):
            if learned[index] > learned[first]:
                first = index
        second = -1
        for index in range(len(ranked)):
            if index != first and (second < 0 or learned[index] > learned[second]):
                second = index
        ranked = [ranked[first], ranked[second]]
        learned = [learned[first], learned[second]]
    wins = play_out(ranked, seat, others, sizes, unseen, caps, memo, rng, max_samples, budget)[0]
    values = [wins[index] + worth * learned[index] for index in range(len(ranked))]
    best = 0
    for index in range(1, len(ranked)):
        if values[index] > values[best]:
            best = index
    return ranked[best][2]


def hint(view, rng):
    """Return the strong choice for this view with a one-line reason (German, English)."""
    action = strong_choose(view, rng)
    if action == "pass":
        return action, "Nichts in deiner Hand schlägt diese Karten.", "Nothing in your hand beats these cards."
    if action == "next":
        return action, "Weiter zur nächsten Austeilung.", "On to the next deal."
    cards = action_cards(action)
    if len(cards) == len(view["hand"]):
        return action, "Damit bist du draußen.", "This takes you out."
    shape = classify(cards, view["opening"])
    if shape is not None and shape["bomb"]:  # not every four cards: a run of two pairs is four too
        return action, "Eine Bombe: sie schlägt alles Gewöhnliche.", "A bomb: it beats every ordinary play."
    # Said as the strong player chooses (a shortlist by plays left, then the deal played out on guesses), in
    # words for a beginner: a newcomer's audit read "leaves the fewest plays" as jargon.
    return action, ("Probiert man aus, wie die Austeilung weitergehen kann, wirst du so am ehesten zuerst alle "
                    "Karten los."), "Trying out how the deal could go on, this play is the likeliest to get you out first."


STRENGTHS = {"leicht": random_choose, "mittel": greedy_choose, "stark": strong_choose}
# Keys saved by earlier releases (games, settings, rooms) and the level they mean now.
STRENGTH_ALIASES = {"random": "leicht", "medium": "mittel", "strong": "stark", "vorausschauend": "stark"}
LEVEL_INFO = {
    "leicht": ("Spielt irgendeine erlaubte Kombination.", "Plays any allowed combination."),
    "mittel": ("Spielt, was die wenigsten Züge in der Hand übrig lässt.",
               "Plays what leaves the fewest plays in its hand."),
    "stark": ("Plant seine Hand und spielt mögliche Verläufe durch. Kennt nur die eigenen Karten.",
              "Plans its hand and tries out how the deal could go on. Knows only its own cards."),
}
