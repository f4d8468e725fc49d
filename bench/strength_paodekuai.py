"""Strength and speed of the Pao De Kuai computers: python -m bench.strength_paodekuai [--games N].

Each line plays N seeded single deals with the tested player's seat rotated
over 0, 1, 2 and reports the share of deals it won (went out first) with its
95 % margin, against the 1/3 baseline, plus its mean settlement points.
"""

import argparse
import time

from bench.common import DecisionTimer, format_share
from spieleabend.bots import paodekuai as bots
from spieleabend.games import paodekuai as engine
from spieleabend.games.common import Rng


def greedy_choose(view, rng):
    """Play the option that leaves the fewest plays in hand (lowest top rank on ties)."""
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    if "next" in legal:
        return "next"
    hand_counts = bots.counts_of(view["hand"])
    memo = {}
    best = None
    best_key = None
    for action in legal:
        removed = bots.counts_of(bots.action_cards(action))
        remaining = [hand_counts[v] - removed[v] for v in range(16)]
        top = max(v for v in range(16) if removed[v])
        plays = bots.plan(remaining, bots.key_of(remaining), memo)[0]
        key = (plays, top)
        if best_key is None or key < best_key:
            best_key = key
            best = action
    return best


def play_deal(players, seed):
    """Play one deal with the given choose functions per seat; return (winner seat, points)."""
    rng = Rng(seed)
    state = engine.new_game({"deals": 1}, rng)
    bot_rng = Rng(seed * 7919 + 17)
    while engine.outcome(state) is None:
        seat = engine.to_move(state)[0]
        action = players[seat](engine.view(state, seat), bot_rng)
        engine.apply_action(state, seat, action)
    record = state["log"][-1]
    points = engine.deal_points(record)
    winner = [s for s in record["settlements"] if s["kind"] == "out"][0]["seat"]
    return winner, points


def matchup(label, tested, opponent, games, target, seed_base):
    """Play `games` deals of one tested player against two opponents and print the line."""
    wins = 0
    points = 0
    for game in range(games):
        seat = game % 3
        players = [opponent, opponent, opponent]
        players[seat] = tested
        winner, deal = play_deal(players, seed_base + game)
        wins += 1 if winner == seat else 0
        points += deal[seat]
    print(format_share(label, wins, games, target=target, baseline=1 / 3)
          + "  mean points %+.2f" % (points / games))
    return wins / games


def main():
    """Run every matchup and the decision-time measurement."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    started = time.time()
    strong = DecisionTimer(bots.STRENGTHS["strong"])
    rand = DecisionTimer(bots.STRENGTHS["random"])
    greedy = DecisionTimer(greedy_choose)
    matchup("strong vs 2 random (deals won)", strong, bots.STRENGTHS["random"],
            args.games, 0.85, 1000000)
    matchup("strong vs 2 greedy (deals won)", strong, greedy_choose, args.games, 0.40, 2000000)
    matchup("greedy vs 2 random (deals won, reference)", greedy, bots.STRENGTHS["random"],
            args.games, None, 3000000)
    matchup("random vs 2 strong (deals won, reference)", rand, bots.STRENGTHS["strong"],
            args.games, None, 4000000)
    print(strong.summary("decision time strong"))
    print(greedy.summary("decision time greedy"))
    print(rand.summary("decision time random"))
    print("total %.1f s" % (time.time() - started))


if __name__ == "__main__":
    main()
