"""What each device received over the relay, and checkers that fail on anything its seat may not see.

A device's frames are the websocket payloads Playwright reports (`ws.on("framereceived")`); the
room data inside them is described in docs/rooms.md ("Browser side"). Every checker takes one
device's frames and its game seat (None for a table screen) and raises AssertionError naming the
leak: another seat's hand, a choice before its reveal, a card not yet public.
"""

import json
import re

CARD = re.compile(r"^(10|[2-9JQKA])[HDSC]$")


def host_data(frames):
    """Return the room data the host sent in these frames (dicts with a kind "k"), in order."""
    out = []
    for text in frames:
        try:
            frame = json.loads(text)
        except (TypeError, ValueError):
            continue
        if isinstance(frame, dict) and frame.get("type") == "msg" and frame.get("from") == "host":
            out.append(frame["data"])
    return out


def tables(frames):
    """Return the table messages (and the reveals of secret games) among the host's data, in order."""
    return [data for data in host_data(frames) if data["k"] in ("table", "reveal")]


def games_played(frames):
    """Split an evening's frames into its games: [(game, seat, frames)] in order, seat None for a screen or a
    phone that watched. A game ends at the host's next lobby; a phone seated during a game (Mau-Mau, between
    deals) starts a new part with its seat. Each part can go to check_frames on its own."""
    parts = []
    current = None
    for text in frames:
        try:
            frame = json.loads(text)
        except (TypeError, ValueError):
            continue
        data = frame.get("data") if isinstance(frame, dict) and frame.get("type") == "msg" else None
        kind = data.get("k") if isinstance(data, dict) else None
        if kind == "lobby":
            current = None
            continue
        if kind == "table":
            key = (data.get("game"), data.get("started_at"), data.get("seat"))
            if current is None or current[0] != key:
                current = (key, [])
                parts.append((data.get("game"), data.get("seat"), current[1]))
        if current is not None:
            current[1].append(text)
    return parts


def cards_in(value):
    """Return every French card named anywhere in a JSON value (also inside actions like "play JC:H mau")."""
    found = []
    if isinstance(value, dict):
        for item in value.values():
            found.extend(cards_in(item))
    elif isinstance(value, list):
        for item in value:
            found.extend(cards_in(item))
    elif isinstance(value, str):
        for token in re.split(r"[\s:|]+", value):
            if CARD.match(token):
                found.append(token)
    return found


def hands_seen(frames):
    """Return the sorted hands a seat's own views held (to check that no other device ever got one)."""
    return [sorted(data["view"]["hand"]) for data in tables(frames)
            if data["k"] == "table" and data["view"].get("hand")]


def frame_index(frames, data):
    """Return the index in `frames` of the frame that carried `data` (None if none did)."""
    for index, text in enumerate(frames):
        try:
            frame = json.loads(text)
        except (TypeError, ValueError):
            continue
        if isinstance(frame, dict) and frame.get("data") == data:
            return index
    return None


def wrong_seat(name, expected, got, frames, data):
    """Return the message for a view of another seat than the device's."""
    return "%s: frames[%s] holds a view of seat %r, expected %s" % (
        name, frame_index(frames, data), got, "a table screen's (seat None)" if expected is None else "seat %r" % expected)


# -- one checker per game --------------------------------------------------------------------------
def check_punktejagd(frames, seat, name="device"):
    """No view held another seat's hand or plan, and no reveal came before every seat had committed.

    Return the number of rounds revealed to the device: by a `reveal` message, or inside a table frame's
    round log (a round whose reveal came while the device reloaded or reconnected)."""
    revealable = set()
    revealed = set()
    for data in host_data(frames):
        if data["k"] == "table":
            view = data["view"]
            assert view["seat"] == seat, wrong_seat(name, seat, view["seat"], frames, data)
            if seat is None:
                assert view["hand"] is None and view["plan"] is None and view["legal"] == []
            rest = dict(view, legal=[])  # this seat's own legal actions are "play N" too
            assert "play " not in json.dumps(rest), (name, "a choice inside a view")
            assert "hands" not in view and "plans" not in view
            if data["cr"]["want"] == "reveal":
                revealable.add(data["cr"]["id"])
            revealed.update(range(len(view.get("log") or [])))  # round n of the log is commit-reveal round n - 1
        elif data["k"] == "reveal":
            assert data["id"] in revealable, (name, "reveal before every seat had committed")
            revealed.add(data["id"])
    return len(revealed)


def check_kartenkampf(frames, seat, name="device"):
    """Before a round's reveal, no frame tells another seat's card of that round.

    Return the revealed rounds as {round id: {seat: card}} (round id: 0 for the first round), from the
    `reveal` messages and from the table frames' round logs (a round whose reveal came while the device
    reloaded or reconnected)."""
    received = tables(frames)
    revealed = {}
    for data in received:
        if data["k"] == "reveal":
            revealed[data["id"]] = {entry[0]: int(entry[1].split()[1]) for entry in data["entries"]}
    first_of_round = {}
    seen_reveals = set()
    for data in received:
        if data["k"] == "reveal":
            seen_reveals.add(data["id"])
            continue
        view, cr = data["view"], data["cr"]
        assert view["seat"] == seat and data["seat"] == seat, wrong_seat(name, seat, view["seat"], frames, data)
        round_id = cr["id"]
        assert round_id not in seen_reveals, (name, "a table frame of a round after its reveal")
        for digest in cr["commits"].values():
            assert re.match(r"^[0-9a-f]{64}$", digest), (name, "a commitment is only a hash")
        # Only finished rounds are in the log and the reveal; nobody's cards of this round are used up yet.
        assert len(view["log"]) == round_id, (name, round_id, view["log"])
        assert view["reveal"] is None or view["reveal"]["round"] == round_id
        start = first_of_round.setdefault(round_id, (view["spent"], view["cards_left"]))
        assert (view["spent"], view["cards_left"]) == start, (name, "cards of this round left a hand early")
        assert "choices" not in view and "hands" not in view
        mine = view.get("pending") or (("play %d" % view["choice"]) if view.get("choice") else None)
        rest = dict(view, legal=[], pending=None)
        assert "play " not in json.dumps(rest), (name, "a choice inside a view")
        if seat is None:
            assert "hand" not in view and "choice" not in view and view["legal"] == []
        elif mine is not None and round_id in revealed:
            assert mine == "play %d" % revealed[round_id][seat], (name, "its own pending choice only")
    for data in received:
        for entry in data["view"]["log"] if data["k"] == "table" else []:
            revealed.setdefault(entry["round"] - 1, dict(enumerate(entry["played"])))
    return dict(sorted(revealed.items()))


MM_EVENT_KEYS = {"type", "deal", "starter", "top", "turned", "seat", "card", "mau", "suit", "wanted", "obligation",
                 "count", "direction", "winner", "points", "totals", "minus", "name", "skipped",
                 "left_seat", "left_starter", "left_winner"}  # the name of a seat that has left (public)


def check_maumau(frames, seat, name="device", other_hands=()):
    """No card outside the device's own hand except public ones (the pile, played cards); never another
    device's hand (`other_hands`: hands_seen of the other phones). Return the number of views."""
    count = 0
    for data in tables(frames):
        view = data["view"]
        assert view["seat"] == seat or seat is None, wrong_seat(name, seat, view["seat"], frames, data)
        if seat is None:
            assert view["hand"] is None and view["legal"] == [], (name, "a hand on a table screen", view["hand"])
        for event in view["events"]:
            assert set(event) <= MM_EVENT_KEYS, event
        rest = {key: value for key, value in view.items() if key not in ("hand", "legal", "top", "events", "last_deal")}
        assert cards_in(rest) == [], (name, "cards outside the own hand and the public ones", cards_in(rest))
        assert set(cards_in(view["legal"])) <= set(view["hand"] or []), name
        own = sorted(view["hand"] or [])
        for hand in other_hands:
            assert own != hand or len(hand) < 2, (name, "another phone's hand", hand)
        count += 1
    return count


def deals_dealt(dealt):
    """Return {deal number: hands} from Pao De Kuai's `dealt`: one deal's hands (three lists of cards, then
    None stands for every deal), a list of the deals' hands (the first deal first) or {deal number: hands}."""
    if dealt is None:
        return {}
    if isinstance(dealt, dict):
        return {int(number): hands for number, hands in dealt.items()}
    dealt = list(dealt)
    if dealt and dealt[0] and all(isinstance(hand, (list, tuple)) for hand in dealt[0]):
        return {number: hands for number, hands in enumerate(dealt, 1)}
    return {None: dealt}


DEALT_HINT = ("is `dealt` this deal's hands? (state[\"hands\"] of spieleabend.save.paodekuai, read before the deal's "
              "first move; for several deals pass a list of each deal's hands or {deal: hands})")


def check_paodekuai(frames, seat, name="device", dealt=None):
    """No card of another seat's hand before that seat played it. With `dealt` (the hands as dealt: the host's
    save's state["hands"] read before a deal's first move; one deal's hands, a list of each deal's hands, or
    {deal number: hands}) also that each seat's played cards match its hand size. Return the number of views."""
    count = 0
    known = deals_dealt(dealt)
    for data in tables(frames):
        view = data["view"]
        assert view["seat"] == seat, wrong_seat(name, seat, view["seat"], frames, data)
        hands = known.get(view.get("deal"), known.get(None))
        deal = "deal %s" % view.get("deal")
        if seat is None:
            assert "hand" not in view and view["legal"] == [], (name, "a hand on a table screen", view.get("hand"))
        elif hands is not None:
            extra = sorted(set(view["hand"]) - set(hands[seat]))
            assert not extra, "%s: cards not dealt to seat %d in %s: %s; %s" % (name, seat, deal, " ".join(extra), DEALT_HINT)
        played = set(view["played"])
        own = set(view.get("hand") or [])
        if hands is not None:
            for other in range(len(hands)):
                if other != seat:
                    assert len(played & set(hands[other])) == len(hands[other]) - view["hand_sizes"][other], (
                        "%s: the played list of seat %d in %s does not match its dealt hand; %s" % (name, other, deal, DEALT_HINT))
        rest = {key: value for key, value in view.items() if key not in ("hand", "legal")}
        for card in cards_in(rest):
            if hands is None:
                assert card in played or card in own, (name, "a card of another seat that it has not played", card)
            else:
                for other in range(len(hands)):
                    if other != seat and card in hands[other]:
                        assert card in played, "%s: an unplayed card of seat %d in %s: %s; %s" % (name, other, deal, card, DEALT_HINT)
        count += 1
    return count


def check_golf(frames, seat, name="device"):
    """No card the device has not seen: not another seat's hidden card, not the stock.

    Seen in a round: the discard pile (face up for everyone), its own drawn card, its own bottom two
    during the peek; the finished round's grids are turned up for everyone. Return the number of views."""
    seen = set()
    current = None
    count = 0
    for data in tables(frames):
        view = data["view"]
        assert view["seat"] == seat, wrong_seat(name, seat, view["seat"], frames, data)
        assert not {"grids", "stock", "hands"} & set(view), name
        if view["round"] != current:
            current, seen = view["round"], set()
        seen |= set(view["discard"])
        if seat is None:
            assert "known" not in view and "drawn" not in view and "peek" not in view, name
        else:
            if view["drawn"] is not None:
                assert view["drawing"] == seat, name
                seen.add(view["drawn"])
            if view["phase"] == "peek" and view["peek"]:
                assert view["peek"] == [2, 3] and view["known"][0] is None and view["known"][1] is None, name
                seen |= {view["known"][2], view["known"][3]}
            for card in view["known"]:
                assert card is None or card in seen, (name, "a card it never saw in its own grid", card)
        if view["last_round"] is not None:
            assert view["last_round"]["round"] < view["round"] or view["phase"] == "over", name
        rest = {key: value for key, value in view.items() if key not in ("last_round",)}
        unseen = [card for card in cards_in(rest) if card not in seen]
        assert unseen == [], (name, "cards it has not seen", unseen)
        count += 1
    return count


def check_room_notes(frames, seat, name="device"):
    """The room's own messages beside the views: a screen is never told a seat's moves, and a seat is
    told only what a computer played for itself, with cards its own views showed it. Return their number."""
    own = set()
    notes = 0
    for data in host_data(frames):
        if data["k"] == "table":
            hand = data["view"].get("hand") if isinstance(data["view"], dict) else None
            own |= {str(card) for card in hand or []}
            for entry in data.get("seats", []):
                assert set(entry) <= SEAT_KEYS, (name, "unknown seat field", entry)
        elif data["k"] == "stood_in":
            assert seat is not None, (name, "a screen was told a seat's moves")
            for action in data["actions"]:
                for word in str(action).split()[1:]:
                    card = word.split(":")[0]
                    if CARD.match(card) or (card.isdigit() and own and all(c.isdigit() for c in own)
                                            and not str(action).startswith(("swap", "take"))):
                        assert card in own, (name, "a move with a card this seat never held", action)
            notes += 1
    return notes


SEAT_KEYS = {"name", "kind", "away", "stand_in", "me", "stand_in_in", "gone"}

CHECKERS = {"punktejagd": check_punktejagd, "kartenkampf": check_kartenkampf, "maumau": check_maumau,
            "paodekuai": check_paodekuai, "golf": check_golf}


def check_frames(game, frames, seat, name="device", **known):
    """Fail on anything in these frames that `seat` (None: a table screen) may not see; return the game's tally.

    `known`: what the game's checker can use besides (Mau-Mau: other_hands; Pao De Kuai: dealt, see
    check_paodekuai)."""
    if game not in CHECKERS:
        raise ValueError("unknown game %r: one of %s" % (game, ", ".join(CHECKERS)))
    check_room_notes(frames, seat, name)
    return CHECKERS[game](frames, seat, name, **known)
