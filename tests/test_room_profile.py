"""bench/room_profile follows a receiver's drawing back to the tap through the devices' spans."""

from bench.room_profile import Profiler


def test_a_phones_move_is_split_into_its_stages_on_the_way_to_the_other_phone():
    profiler = Profiler()
    tap = 1000.0
    profiler.spans = {
        "anna": [("tap handled", 1001.0, 1003.0), ("ws send to_host", 1003.0, 1003.2)],
        "host": [("frame in", 1008.0, 1030.0), ("engine step", 1009.0, 1012.0), ("view", 1013.0, 1016.0),
                 ("ws send to_seat2", 1020.0, 1020.3), ("draw", 1031.0, 1060.0)],
        "ben": [("frame in", 1025.0, 1026.0), ("draw", 1027.0, 1050.0), ("build: render_hand", 1028.0, 1040.0),
                ("post drawing", 1049.0, 1050.0), ("page html", 1052.0, 1055.0)],
    }
    stages = profiler.follow("anna", "ben", tap, 1055.1)
    assert stages["tap"] == 1.0
    assert stages["phone"] == 3.0 and stages["relay_in"] == 5.0
    assert stages["host"] == 12.0, "from the phone's frame in to the frame out to Ben"
    assert stages["host: engine step"] == 3.0 and stages["host: view"] == 3.0
    assert stages["relay_out"] == 5.0 and stages["wait"] == 2.0
    assert stages["build"] == 22.0 and stages["build: render_hand"] == 12.0
    assert stages["post"] == 3.0 and stages["dom"] == 3.0
    assert round(stages["observe"], 1) == 0.1
    whole = sum([stages[name] for name in ("phone", "relay_in", "host", "relay_out", "wait", "build", "post", "dom",
                                           "observe")])
    assert round(whole, 1) == 55.1, "the stages add up to the step"


def test_a_drawing_that_cannot_be_followed_back_is_left_out():
    profiler = Profiler()
    profiler.spans = {"host": [], "ben": [("page html", 1052.0, 1055.0)]}
    assert profiler.follow("host", "ben", 1000.0, 1055.1) is None
