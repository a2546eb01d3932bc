"""Match bookkeeping: target, totals, dealer rotation, winners, rematch."""

import random

import pytest

from ocholoco import Match, new_match, new_round, random_playout


@pytest.mark.parametrize(("players", "target"), [(2, 100), (3, 150), (4, 200)])
def test_the_target_is_fifty_points_per_player(players, target):
    assert new_match("clasico", players).target == target


def finished_round(match: Match, seed: int):
    return random_playout(match.deal(seed=seed), random.Random(seed))


def test_a_match_adds_the_round_points_and_passes_the_deal_to_the_next_player():
    match = new_match("especiales", 3)
    assert (match.dealer, match.round_number, match.totals) == (0, 1, (0, 0, 0))
    done = finished_round(match, 1)
    after = match.apply_round(done)
    assert after.totals == done.round_points
    assert (after.dealer, after.round_number) == (1, 2)
    assert after.deal(seed=2).dealer == 1


def test_a_round_from_another_dealer_is_refused():
    match = new_match("clasico", 2)
    with pytest.raises(ValueError):
        match.apply_round(random_playout(new_round("clasico", 2, 1, seed=1), random.Random(1)))
    with pytest.raises(ValueError):
        match.apply_round(match.deal(seed=1))  # not finished


def test_a_match_ends_when_a_total_reaches_the_target_and_the_highest_total_wins():
    match = Match(new_match("clasico", 3).rules, 3, (90, 150, 120))
    assert match.finished and match.winners == (1,)
    assert not Match(match.rules, 3, (90, 149, 120)).finished
    assert Match(match.rules, 3, (90, 149, 120)).winners == ()


def test_a_tie_at_the_top_shares_the_win():
    match = Match(new_match("clasico", 2).rules, 2, (110, 110))
    assert match.winners == (0, 1)


def test_a_rematch_keeps_the_rules_and_players_and_starts_again_at_zero():
    match = Match(new_match("especiales", 4).rules, 4, (10, 250, 30, 0), 9, 3)
    again = match.rematch()
    assert again == new_match("especiales", 4)
    assert (again.totals, again.dealer, again.round_number) == ((0, 0, 0, 0), 0, 1)
