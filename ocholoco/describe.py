"""What a rule set says, as facts: the table's rules card and the rules page word them.

Generated from the `RuleSet` itself, so neither ever disagrees with the game. Each fact is a
`Fact` of `facts.RULES_FACTS`, in the order a reader wants them: who plays, the deck, the deal,
what may be played, the special cards, drawing, the empty stock, the announcement, the round,
the scoring.
"""

from __future__ import annotations

from .cards import JOKER_RANK, RANKS
from .facts import Fact
from .rules import RuleSet


def rules_facts(rules: RuleSet) -> list[Fact]:
    """``rules`` as facts, from who plays to how the match is won."""
    facts = [
        Fact.of("players", min=rules.min_players, max=rules.max_players),
        _deck(rules),
        _deal(rules),
        Fact("follow"),
    ]
    wilds = tuple(r for r in RANKS if r in rules.wild_ranks)
    if wilds:
        facts.append(Fact.of("wilds", ranks=wilds))
    if rules.jokers:
        facts.append(Fact("joker"))
    facts.extend(Fact.of("effect", rank=rank, effect=effect) for rank, effect in rules.effects)
    facts.append(Fact.of("draw", policy=rules.draw_policy))
    if rules.reshuffles:
        facts.append(Fact.of("reshuffle", times=rules.max_reshuffles))
    else:
        facts.append(Fact("no_reshuffle"))
    if rules.announces:
        facts.append(Fact.of("announce", fine=rules.announce_fine))
    facts.append(Fact("round_won"))
    target = Fact.of(
        f"target_{rules.scoring}",
        points=rules.target_points or rules.target_per_player,
        per_player=not rules.target_points,
    )
    facts.extend([Fact(f"scoring_{rules.scoring}"), points_fact(rules), target])
    return facts


def _deck(rules: RuleSet) -> Fact:
    counts = range(rules.min_players, rules.max_players + 1)
    two = [n for n in counts if rules.decks_for(n) == 2]
    if not two:
        return Fact.of("deck_one", jokers=rules.jokers)
    if len(two) == len(counts):
        return Fact.of("deck_two", jokers=rules.jokers)
    return Fact.of("deck_two_from", jokers=rules.jokers, players=two[0])


def _deal(rules: RuleSet) -> Fact:
    sizes = [(n, rules.hand_size(n)) for n in range(rules.min_players, rules.max_players + 1)]
    if len({size for _, size in sizes}) == 1:
        return Fact.of("deal_same", cards=sizes[0][1])
    groups: list[tuple[int, int, int]] = []  # (first players, last players, cards)
    for n, size in sizes:
        if groups and groups[-1][2] == size:
            groups[-1] = (groups[-1][0], n, size)
        else:
            groups.append((n, n, size))
    return Fact.of("deal_by_players", groups=tuple(groups))


def points_fact(rules: RuleSet) -> Fact:
    """What each card is worth, grouped: ``groups``, the ranks worth the same (highest value
    first, each group's ranks from the highest: ``(("K", "Q", "J"), 10)``), and ``runs``, the
    numbered cards worth their number as runs (``((2, 7), (9, 9), (10, 10))``: "2 a 7, 9 y
    10"; a run of two is two runs of one)."""
    points = dict(rules.points)
    numbered = [r for r in RANKS if r.isdigit() and points[r] == int(r)]
    by_value: dict[int, list[str]] = {}
    for rank in [*RANKS, JOKER_RANK]:
        if rank in points and rank not in numbered:
            by_value.setdefault(points[rank], []).append(rank)
    groups = tuple(
        (tuple(reversed(ranks)), value)
        for value, ranks in sorted(by_value.items(), key=lambda item: -item[0])
    )
    return Fact.of("points", groups=groups, runs=_runs(numbered))


def _runs(ranks: list[str]) -> tuple[tuple[int, int], ...]:
    """``["2", "3", "4", "9", "10"]`` -> ``((2, 4), (9, 9), (10, 10))``."""
    runs: list[list[int]] = []
    for n in sorted(int(r) for r in ranks):
        if runs and runs[-1][-1] == n - 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    spans: list[tuple[int, int]] = []
    for run in runs:
        if len(run) > 2:
            spans.append((run[0], run[-1]))
        else:
            spans.extend((n, n) for n in run)
    return tuple(spans)
