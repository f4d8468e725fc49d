"""The game night across games: points for unique wins, shared and undecided games, one row per name."""

from spieleabend.storage import evening_table, verdict


def result(game, players, winners, at, night="n1"):
    return {"game": game, "players": players, "winners": winners, "finished_at": at, "night": night,
            "scores": [0] * len(players)}


EVENING = [
    result("punktejagd", ["Ada", "Anna", "Ben"], ["Ada"], 1),
    result("kartenkampf", ["ada", "Bo", "Anna"], [], 2),           # undecided: nobody gets anything
    result("maumau", ["Bo", "Ada "], ["Bo"], 3),
    result("golf", ["Ada", "Bo"], ["Ada", "Bo"], 4),               # shared: won, but no point
    result("punktejagd", ["Ada", "Anna"], ["Anna"], 5),
    result("punktejagd", ["Ada"], ["Ada"], 6, night="n0"),         # another evening
]


def rows_by_name(table):
    return {row["name"]: row for row in table["rows"]}


def test_unique_wins_give_one_point_shared_and_undecided_none():
    table = evening_table(EVENING, "n1")
    rows = rows_by_name(table)
    assert rows["Ada"]["points"] == 1 and rows["Ada"]["wins"] == 2 and rows["Ada"]["games"] == 5
    assert rows["Bo"]["points"] == 1 and rows["Bo"]["wins"] == 2 and rows["Bo"]["games"] == 3
    assert rows["Anna"]["points"] == 1 and rows["Anna"]["wins"] == 1 and rows["Anna"]["games"] == 3
    assert rows["Ben"]["points"] == 0 and rows["Ben"]["games"] == 1
    assert sum(row["points"] for row in table["rows"]) == 3, "five games, three unique winners"
    assert [g["verdict"] for g in table["games"]] == ["win", "none", "win", "shared", "win"]


def test_the_same_name_across_games_is_one_row():
    table = evening_table(EVENING, "n1")
    names = [row["name"] for row in table["rows"]]
    assert len([n for n in names if n.lower() == "ada"]) == 1
    assert len(names) == 4


def test_points_per_game_and_in_total():
    rows = rows_by_name(evening_table(EVENING, "n1"))
    assert rows["Ada"]["per_game"]["punktejagd"] == {"points": 1, "games": 2, "wins": 1}
    assert rows["Ada"]["per_game"]["golf"] == {"points": 0, "games": 1, "wins": 1}
    assert rows["Bo"]["per_game"]["maumau"] == {"points": 1, "games": 1, "wins": 1}
    assert "golf" not in rows["Anna"]["per_game"]
    for row in rows.values():
        assert row["points"] == sum(g["points"] for g in row["per_game"].values())
        assert row["games"] == sum(g["games"] for g in row["per_game"].values())


def test_order_points_then_wins_then_games_then_first_seen():
    table = evening_table(EVENING, "n1")
    assert [row["name"] for row in table["rows"]] == ["Ada", "Bo", "Anna", "Ben"]
    assert table["played"] == ["punktejagd", "kartenkampf", "maumau", "golf"]


def test_named_people_have_a_row_before_they_play():
    table = evening_table(EVENING, "n-empty", people=["Ada", "Cem"])
    assert [(r["name"], r["points"], r["games"]) for r in table["rows"]] == [("Ada", 0, 0), ("Cem", 0, 0)]
    assert table["games"] == []


def test_a_tie_for_first_earns_nobody_a_point():
    table = evening_table([result("kartenkampf", ["Ada", "Bo"], ["Ada", "Bo"], 1)], "n1")
    assert [r["points"] for r in table["rows"]] == [0, 0]
    assert [r["wins"] for r in table["rows"]] == [1, 1]


def test_verdict_names_the_three_cases():
    assert verdict({"winners": ["A"]}) == "win"
    assert verdict({"winners": ["A", "B"]}) == "shared"
    assert verdict({"winners": []}) == "none"
