"""The random self-play behind ``manage.py simulate`` and the benchmark."""

from ocholoco.simulate import simulate


def test_simulation_counts_rounds_moves_blocked_rounds_and_wins_per_seat():
    report = simulate("especiales", 4, 50, seed=1)
    assert (report.rounds, report.players) == (50, 4)
    assert sum(report.wins) >= 50  # a shared blocked win counts for every tied seat
    assert 0 <= report.blocked <= 50 and report.moves_per_round > 1
    assert simulate("especiales", 4, 50, seed=1).wins == report.wins  # seeded
