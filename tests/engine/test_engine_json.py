"""JSON snapshots: what the tables store survives json.dumps/loads unchanged."""

import json

from ocholoco import Draw, Play, from_json, new_match, to_json, view_for

from .positions import play, position


def test_a_round_in_the_middle_of_a_penalty_survives_a_json_round_trip():
    state = play(position("especiales", [["2H", "KS"], ["2S", "JD"], ["KC"]], "5H",
                          stock=["3C", "4D"]), "2H", "2S")  # fmt: skip
    data = json.loads(json.dumps(to_json(state)))
    assert data["type"] == "round" and data["pending_draw"] == 4
    assert data["history"][-1] == ["play", 1, "2S", None, 0]
    assert from_json(data) == state


def test_views_matches_and_moves_survive_a_json_round_trip():
    state = position("clasico", [["8H", "KS"], ["JD"]], "5H", stock=["3C"])
    for obj in (view_for(state, 1), new_match("clasico", 3), Play("8H", "S"), Draw()):
        assert from_json(json.loads(json.dumps(to_json(obj)))) == obj
    assert to_json(Play("8H", "S")) == {"type": "move", "move": "8H:S"}
