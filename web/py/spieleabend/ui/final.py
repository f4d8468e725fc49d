"""The final standings every game ends with: one piece, drawn from the engine's one outcome shape.

The engine decides (spieleabend.games.common.game_outcome): the winners, the scores, the ranking with
shared places, the game-night point and, where a game breaks ties, what decided. This module words
it the same way in every game, on a phone, on the table screen and behind the pass-and-play cover.
A game adds only its own words, through final_standings' keywords: how a score reads (Mau-Mau's
minus points, Pao De Kuai's signs), a short tag beside a name (Mau-Mau's "raus"), a line under a row
(Kartenkampf's tie-break figures), the sentence on what decided (Kartenkampf), its own headline
(Golf's fewest points) and what follows the standings (Golf's score sheet, Mau-Mau's last deal,
Pao De Kuai's last settlement on the table screen).
"""

from spieleabend.ui.html import button, escape
from spieleabend.ui.i18n import ordinal, t


def standings(outcome):
    """Return [(seat, place, score)] best first, as the engine ranked the finished game (shared places)."""
    return [(row["seat"], row["place"], outcome["scores"][row["seat"]]) for row in outcome["ranking"]]


def night_point_note(outcome, names, me):
    """Return the final screen's line on the game-night point, the same in every game (the engine's night_point)."""
    seat = outcome["night_point"]
    if seat is None:
        text = t("final.no_night_point")
    elif seat == me:
        text = t("final.night_point_you")
    else:
        text = t("final.night_point", name=names[seat])
    # What the point is for, said once under it (a newcomer's audit: "game-night point" was never explained).
    why = '<p class="hint night-point-why" data-testid="night-point-why">%s</p>' % escape(t("final.night_point_why"))
    return '<p class="night-point%s" data-testid="night-point">%s</p>%s' % (
        "" if seat is not None else " none", escape(text), why if seat is not None else "")


def final_headline(outcome, names, me, words=None):
    """Return who won: this device's person, one name, a shared win, or nobody (a tie no rule breaks).

    `words`: a game's own texts for "winner" and "you_win" (keys of the translation table).
    """
    winners = outcome["winners"]
    if not winners:
        return t("final.undecided")
    if len(winners) > 1:
        return t("final.shared_win", names=", ".join([names[seat] for seat in winners]))
    own = words or {}
    if winners[0] == me:
        return t(own["you_win"] if "you_win" in own else "final.you_win")
    return t(own["winner"] if "winner" in own else "final.winner", name=names[winners[0]])


def final_standings(table, names, outcome, scores=None, spoken=None, tags=None, notes=None, decider="",
                    after="", words=None):
    """Return the final standings of a finished game on `table` for this device's seat.

    Per seat, all optional: `scores` the score as the game writes it (default "12 Punkte"), `spoken`
    what a screen reader says instead, `tags` a short word beside the name, `notes` a line under the
    row. `decider`: what decided a tie, in words; `after`: the game's HTML that follows the standings;
    `words`: see final_headline. On a table read from afar (a room's TV) it is large and has no link to
    this device's Ergebnisse (nobody browses on a TV); a phone watching a room or several people at one
    phone read it in the hand, with the link.
    """
    screen = table.reads_from_afar()
    me = table.seat
    winners = outcome["winners"]
    kinds = [entry["kind"] for entry in table.seats()] if hasattr(table, "seats") else []
    # Several people (one device or a room): a computer named like a person ("Anna gewinnt!") is marked.
    people = len([kind for kind in kinds if kind != "computer"])
    rows = []
    for seat, place, score in standings(outcome):
        text = scores[seat] if scores is not None else t("final.points", n=score)
        label = ' aria-label="%s"' % escape(spoken[seat]) if spoken is not None and spoken[seat] else ""
        tag = tags[seat] if tags is not None else ""
        if not tag and people > 1 and seat < len(kinds) and kinds[seat] == "computer":
            tag = t("final.computer")
        note = notes[seat] if notes is not None else ""
        rows.append(
            '<li class="standing%s%s" data-testid="standing-%d" data-points="%d" data-seat="%d">'
            '<span class="rank">%s</span><span class="who"><span class="name">%s</span>%s</span><span class="score"%s>%s</span>%s</li>' % (
                " win" if seat in winners else "", " tagged" if tag else "", seat, score, seat,
                escape(t("final.place", n=place, nth=ordinal(place))), escape(names[seat]),
                ' <span class="standing-tag">%s</span>' % escape(tag) if tag else "", label, escape(text),
                '<span class="standing-note">%s</span>' % escape(note) if note else ""))
    controls = []
    replay_id = None if screen else getattr(table, "replay_id", None)  # kept by this device when it recorded the game
    if table.can_rematch():
        # Across the row when two links follow it, so "Partie ansehen" and "Ergebnisse" pair up below.
        controls.append(button(t("home.new_game"), "new-game", "new-game", kind="primary", extra="wide" if replay_id else ""))
    if not screen:
        if replay_id:
            controls.append('<a class="btn btn-secondary" href="#/replay/%s" data-testid="final-watch">%s</a>' % (
                escape(replay_id), escape(t("final.watch"))))
        controls.append('<a class="btn btn-secondary" href="#/results" data-testid="to-results">%s</a>' % escape(
            t("home.results")))
    return ('<section class="final%s" aria-labelledby="final-h" data-testid="final"><h2 id="final-h">%s</h2>'
            '<p class="headline" data-testid="final-headline" role="status">%s</p>%s%s<ol class="standings">%s</ol>%s</section>%s' % (
                " final-screen" if screen else "", escape(t("final.title")),
                escape(final_headline(outcome, names, me, words)),
                '<p class="decider" data-testid="tie-break">%s</p>' % escape(decider) if decider else "",
                night_point_note(outcome, names, me), "".join(rows),
                '<div class="controls">%s</div>' % "".join(controls) if controls else "", after))
