"""The committed deal (`ocholoco.fairness`) and the replay of a round (`ocholoco.replay`)."""

from __future__ import annotations

import hashlib
import random

import pytest

from ocholoco import (
    PRESETS,
    Card,
    Deal,
    apply_move,
    commitment_of,
    deck_cards,
    from_json,
    legal_moves,
    new_round,
    replay,
    reshuffle_order,
    shuffled_deal,
    to_json,
)

from .positions import play, position


@pytest.mark.parametrize(("rules", "players"), [("clasico", 4), ("anuncio", 6), ("chileno", 3)])
def test_a_shuffled_deal_holds_the_rule_sets_whole_deck_and_a_fresh_salt(rules, players):
    deal = shuffled_deal(PRESETS[rules], players, random.Random(players))
    assert sorted(deal.deck) == deck_cards(PRESETS[rules], players)  # two decks, jokers
    assert len(deal.salt) == 32 and int(deal.salt, 16) >= 0
    assert shuffled_deal(PRESETS[rules], players, random.Random(players + 1)).salt != deal.salt


def test_the_reveal_is_one_line_that_reads_back_and_hashes_to_the_commitment():
    deal = shuffled_deal(PRESETS["chileno"], 2, random.Random(1))
    text = deal.reveal
    assert "\n" not in text and text.isascii() and "'" not in text
    assert text.startswith(f"ocholoco-reparto-1 sal={deal.salt} mazo=")
    assert text.endswith(",".join(str(c) for c in deal.deck))
    assert Deal.parse(text) == deal
    assert deal.commitment == commitment_of(text) == hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.parametrize(
    "text",
    ["", "ocholoco-reparto-1 sal=xyz mazo=10H", "ocholoco-reparto-1 sal=" + "0" * 32 + " mazo=1X"],
)
def test_a_text_that_is_not_a_reveal_is_refused(text):
    with pytest.raises(ValueError):
        Deal.parse(text)


@pytest.mark.parametrize("dealer", [0, 2])
def test_the_revealed_deck_deals_one_card_at_a_time_from_the_player_after_the_dealer(dealer):
    deal = shuffled_deal(PRESETS["especiales"], 3, random.Random(dealer))
    state = new_round("especiales", 3, dealer, deck=deal.deck, salt=deal.salt)
    for player in range(3):
        expected = [deal.deck[i] for i in range(15) if (dealer + 1 + i) % 3 == player]
        assert state.hands[player] == tuple(sorted(expected))
    assert state.salt == ""  # product rules never reshuffle: no salt to keep


def test_a_reshuffle_puts_the_pile_in_the_order_the_salt_gives_it():
    salt = "0123456789abcdef0123456789abcdef"
    state = position("libro", [["9S", "JD"], ["KS", "KC", "KD"]], "5H")
    state = play(_with_salt(state, salt), "draw")
    pile = sorted(set(deck_cards(PRESETS["libro"], 2)) - {Card.parse(c) for c in
                  ["9S", "JD", "KS", "KC", "KD", "5H"]})  # fmt: skip
    order = reshuffle_order(salt, 1, pile)
    drawn = [c for c in state.hands[0] if c not in {Card.parse("9S"), Card.parse("JD")}]
    assert drawn == [order[0]] and list(state.stock) == order[1:]
    other = play(
        _with_salt(position("libro", [["9S", "JD"], ["KS", "KC", "KD"]], "5H"), "x"), "draw"
    )
    assert other.stock != state.stock


def test_the_reshuffle_order_follows_the_documented_hash_and_the_copies_are_one_card():
    salt = "f" * 32
    cards = [Card.parse(c) for c in ["10H", "3C", "10H", "JK", "JK"]]
    keys = {
        label: hashlib.sha256(f"{salt}:2:{label}".encode()).digest()
        for label in ["10H", "3C", "10H#2", "JK", "JK#2"]
    }
    expected = [label.partition("#")[0] for label in sorted(keys, key=keys.get)]
    assert [str(c) for c in reshuffle_order(salt, 2, cards)] == expected
    assert reshuffle_order(salt, 2, list(reversed(cards))) == reshuffle_order(salt, 2, cards)
    assert reshuffle_order(salt, 3, cards) != reshuffle_order(salt, 2, cards)


@pytest.mark.parametrize(("rules", "players"), [("especiales", 4), ("libro", 2), ("chileno", 3)])
def test_a_replay_of_the_deal_and_the_moves_reaches_the_same_end(rules, players):
    rng = random.Random(players)
    deal = shuffled_deal(PRESETS[rules], players, rng)
    state = new_round(rules, players, 1, deck=deal.deck, salt=deal.salt)
    moves, states = [], [state]
    while not state.finished:
        move = rng.choice(legal_moves(state))
        moves.append(move)
        state = apply_move(state, move)
        states.append(state)
    again = replay(PRESETS[rules], players, 1, deal, [str(m) for m in moves] + ["draw"])
    assert again == states  # every position, and the moves after the end are not read


def _with_salt(state, salt):
    """``state`` with the salt a committed deal would have given it."""
    data = to_json(state)
    data["salt"] = salt
    return from_json(data)
