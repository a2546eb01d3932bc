"""The engine says facts, never words: no sentence in any language is written in `ocholoco/`,
and every reason it gives is a code of its own lists, with arguments that are data."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

import ocholoco
from ocholoco import Card, Catch, Draw, Fact, IllegalMove, Pass, Play, apply_move, legal_moves
from ocholoco.facts import INVALID_RULES, REASONS, RULES_FACTS

ENGINE = Path(ocholoco.__file__).parent
# The one text of the engine that is not code or a name: the deal's reveal format, fixed by the
# commitments already published (``ocholoco-reparto-1 sal=... mazo=...``).
FORMAT = re.compile(r"ocholoco-reparto|\bsal=|\bmazo=")
SPANISH = re.compile(
    r"[áéíóúñ¡¿«»]|\b(?:de|la|el|las|los|una?|que|con|se|tu|tienes|jugó|robó|carta|cartas"
    r"|jugadores?|palo|mazo|ronda|mesa|reglas?)\b",
    re.IGNORECASE,
)


def _literals(path: Path) -> list[tuple[int, str]]:
    """The string literals of a module that are not docstrings, with their lines."""
    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and id(node) not in docstrings and not FORMAT.search(node.value)
    ]  # fmt: skip


@pytest.mark.parametrize("path", sorted(ENGINE.glob("*.py")), ids=lambda p: p.name)
def test_no_module_of_the_engine_writes_a_sentence(path):
    said = [(line, text) for line, text in _literals(path) if SPANISH.search(text)]
    assert not said, f"{path.name}: words belong in tables.audiences.wording: {said}"


def test_every_refusal_in_random_rounds_is_a_reason_code_with_data_for_arguments():
    """Rounds of every preset: each refused move and each unplayable card says a code of
    `REASONS`, with cards, ranks, suits, counts and tuples of them as arguments."""
    rng = random.Random(51)
    seen: set[str] = set()
    for rules in ocholoco.PRESETS.values():
        for seed in range(3):
            state = ocholoco.new_round(rules, rules.max_players if seed else 2, seed=seed)
            while not state.finished:
                legal = set(legal_moves(state))
                hand = state.hands[state.turn]
                for move in [Draw(), Pass(), Catch(), *(Play(c, s) for c in hand
                                                         for s in (None, "S"))]:  # fmt: skip
                    if move not in legal:
                        with pytest.raises(IllegalMove) as refused:
                            apply_move(state, move)
                        seen.add(_checked(refused.value.reason))
                for card in {*hand, Card.parse("KS")}:
                    reason = ocholoco.why_not_playable(state, card)
                    if reason is not None:
                        seen.add(_checked(reason))
                state = apply_move(state, rng.choice(sorted(legal, key=str)))
    assert len(seen) >= 8  # the common ones, at least


def _checked(reason: Fact) -> str:
    assert reason.code in REASONS
    for value in reason.args.values():
        values = value if isinstance(value, tuple) else (value,)
        assert all(isinstance(v, int | Card) or re.fullmatch(r"[A-Z0-9]{1,2}", v)
                   for v in values), reason  # fmt: skip
    return reason.code


def test_the_code_lists_do_not_overlap_and_rule_sets_say_only_rule_facts():
    assert not (REASONS & INVALID_RULES or REASONS & RULES_FACTS or INVALID_RULES & RULES_FACTS)
    for rules in ocholoco.PRESETS.values():
        assert {fact.code for fact in ocholoco.rules_facts(rules)} <= RULES_FACTS
