"""The engine's facts worded in English and Brazilian Portuguese (#52): the sentences come from
the catalogs in `locale/` (compiled by `manage.py compilemessages`), in the language active when
they are said, and the sentences kept per language never cross from one language to another."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.utils import translation

import ocholoco
from ocholoco import Card, Event, Fact
from ocholoco.facts import INVALID_RULES, REASONS, RECORD_ERRORS
from tables.audiences import cards, wording
from tables.invitation.preview import LOBBY, InvitationPreview

NAMES = ["Ana", "Beto"].__getitem__



@pytest.fixture(scope="module", autouse=True)
def compiled_catalogs() -> None:
    """The catalogs compiled, as `manage.py compilemessages` leaves them (GNU gettext's
    msgfmt does it; without it, and without compiled catalogs, nothing here can be said)."""
    compiled = [
        Path(settings.LOCALE_PATHS[0]) / lang / "LC_MESSAGES" / "django.mo"
        for lang in ("en", "pt_BR")
    ]
    if not all(mo.exists() for mo in compiled):
        if shutil.which("msgfmt") is None:
            pytest.skip("no compiled catalogs, and no msgfmt to compile them")
        call_command("compilemessages", locale=["en", "pt_BR"], verbosity=0)
        translation.trans_real._translations.clear()  # read the new catalogs


def said(language: str, word, *args, **kwargs) -> str:
    with translation.override(language):
        return word(*args, **kwargs)


@pytest.mark.parametrize(("language", "sentences"), [
    ("en", [
        "Ana played the 8 of hearts and called spades",
        "Beto drew a card",
        "Beto drew 2 cards and loses the turn",
        "Ana played the queen of clubs",
        "Beto didn't say “Last card!” and drew a card",
        "Ana ran out of cards",
    ]),
    ("pt-br", [
        "Ana jogou o 8 de copas e pediu espadas",
        "Beto comprou uma carta",
        "Beto comprou 2 cartas e perde a vez",
        "Ana jogou a dama de paus",
        "Beto não disse “Última carta!” e comprou uma carta",
        "Ana ficou sem cartas",
    ]),
])  # fmt: skip
def test_moves_read_in_the_active_language(language: str, sentences: list[str]):
    events = [
        Event("play", 0, Card.parse("8H"), "S"),
        Event("draw", 1, count=1),
        Event("penalty", 1, count=2),
        Event("play", 0, Card.parse("QC")),
        Event("caught", 1, count=1),
        Event("out", 0),
    ]
    assert [said(language, wording.event_sentence, e, NAMES) for e in events] == sentences


def test_a_players_own_moves_are_said_to_them_in_their_language():
    play = Event("play", 0, Card.parse("AS"), None)
    assert said("en", wording.event_sentence, play, NAMES, 0) == "You played the ace of spades"
    assert said("pt-br", wording.event_sentence, play, NAMES, 0) == "Você jogou o ás de espadas"
    penalty = Event("penalty", 0, count=1)
    assert said("en", wording.event_sentence, penalty, NAMES, 0) == (
        "You drew a card and lose your turn"
    )
    assert said("pt-br", wording.event_sentence, penalty, NAMES, 0) == (
        "Você comprou uma carta e perde a vez"
    )


def test_draws_in_a_row_are_counted_in_each_language():
    assert said("en", wording.draws_sentence, "Ana", 1) == "Ana drew a card"
    assert said("en", wording.draws_sentence, "Ana", 2) == "Ana drew 2 cards"
    assert said("pt-br", wording.draws_sentence, "Ana", 1) == "Ana comprou uma carta"
    assert said("pt-br", wording.draws_sentence, "Ana", 2) == "Ana comprou 2 cartas"


def test_refusals_read_in_the_active_language_with_their_articles():
    follow = Fact.of("must_follow", suit="H", rank="5", wilds=("8", "J"))
    assert said("en", wording.reason_sentence, follow) == (
        "You have to play ♥, a 5 or an 8 or a jack"
    )
    assert said("pt-br", wording.reason_sentence, follow) == (
        "Você tem que jogar ♥, um 5 ou um 8 ou um valete"
    )
    assert said("en", wording.card_refusal, Fact("not_your_turn")) == (
        "It's not your turn", "no: it's not your turn",
    )
    assert said("pt-br", wording.reason_sentence, Fact.of("must_name_suit", rank="8")) == (
        "Você tem que escolher um naipe para o 8"
    )


def test_cards_and_suits_by_their_names_in_each_language():
    assert said("en", wording.card_name, "10H") == "10 of hearts"
    assert said("pt-br", wording.card_name, "10H") == "10 de copas"
    assert said("en", wording.the_card, Card.parse("QD")) == "the queen of diamonds"
    assert said("pt-br", wording.the_card, Card.parse("QD")) == "a dama de ouros"
    assert said("pt-br", wording.the_card, Card.parse("JC")) == "o valete de paus"
    assert said("en", wording.the_card, Card.parse("JK")) == "the joker"
    assert said("pt-br", wording.suit_name, "S") == "espadas"


def test_a_round_ends_and_a_rule_set_reads_in_each_language():
    assert said("en", wording.event_sentence, Event("blocked", 0), NAMES) == (
        "The table is blocked"
    )
    assert said("pt-br", wording.turn_hint, 2, "D") == "compre 2, o naipe é ouros"
    clasico = ocholoco.PRESETS["clasico"]
    assert said("en", wording.rules_name, clasico) == "Classic"
    english = said("en", wording.rules_sentences, clasico)
    assert english[0] == "For 2 to 4 players."
    assert said("pt-br", wording.rules_sentences, clasico)[0] == "Para 2 a 4 jogadores."


@pytest.mark.parametrize(
    ("language", "one", "many"),
    [
        ("es", "alguien llega a 1 punto;", "alguien llega a 2 puntos;"),
        ("en", "someone reaches 1 point;", "someone reaches 2 points;"),
        ("pt-br", "alguém chega a 1 ponto;", "alguém chega a 2 pontos;"),
    ],
)
def test_a_match_to_one_point_says_point_in_the_singular(language, one, many):
    def target(points):
        rules = dataclasses.replace(ocholoco.PRESETS["clasico"], target_points=points)
        return said(language, wording.rules_sentences, rules)[-1]

    assert one in target(1)
    assert many in target(2)


def test_every_fact_has_a_translation_in_each_language():
    """No sentence of the engine's facts falls back to Spanish (a missing or fuzzy entry)."""
    source = wording._REASONS | wording._INVALID_RULES | wording._RECORD_ERRORS
    assert set(source) == REASONS | INVALID_RULES | RECORD_ERRORS
    spanish = {code: said("es", str, phrase) for code, phrase in source.items()}
    for language in ("en", "pt-br"):
        for code, phrase in source.items():
            assert said(language, str, phrase) != spanish[code], (language, code)


def test_the_sentences_kept_per_language_do_not_leak_from_one_to_another():
    play = Event("play", 0, Card.parse("8H"), "S")
    refusal = Fact("not_your_turn")
    card = Card.parse("KS")
    for _ in range(2):  # the second time, every sentence comes from the caches
        assert said("es", wording.event_sentence, play, NAMES) == (
            "Ana jugó el 8 de corazones y pidió picas"
        )
        assert said("en", wording.event_sentence, play, NAMES) == (
            "Ana played the 8 of hearts and called spades"
        )
        assert said("es", wording.reason_sentence, refusal) == "No es tu turno"
        assert said("en", wording.reason_sentence, refusal) == "It's not your turn"
        assert said("es", cards.card_info, card)["name"] == "rey de picas"
        assert said("en", cards.card_info, card)["name"] == "king of spades"
        assert said("pt-br", cards.card_info, card)["name"] == "rei de espadas"


def test_the_invitation_preview_speaks_the_hosts_language_whoever_asks():
    preview = InvitationPreview(kind=LOBBY, host="Ana", rules="Classic", seat_count=4,
                                seated=("Ana",), language="en")
    with translation.override("pt-br"):
        assert preview.title == "Ana invites you to an Ocho Loco table"
        assert preview.seats_text == "3 seats left"
    spanish = InvitationPreview(kind=LOBBY, host="Ana", rules="Clásico", seat_count=2,
                                seated=("Ana",), language="es")
    assert spanish.title == "Ana te invita a una mesa de Ocho Loco"
    assert spanish.seats_text == "queda 1 lugar"
    assert preview.key != spanish.key


@pytest.mark.django_db
def test_a_table_keeps_its_hosts_language_for_the_invitations_preview():
    from tables.changes import services
    from tables.invitation.preview import invitation_preview
    from tables.state.snapshot import TableSnapshot

    with translation.override("pt-br"):
        table, _secret = services.table_open(rules_key="clasico", host_name="Ana")
    assert table.host_language == "pt-br"
    with translation.override("en"):  # a chat app's fetch, whatever its language
        preview = invitation_preview(TableSnapshot.load(table))
        assert preview.title == "Ana convida você para uma mesa de Ocho Loco"
        assert preview.description == (
            "Clássico · restam 3 lugares. Entre pelo link, escreva o seu nome e sente para jogar."
        )


@pytest.mark.django_db
def test_the_tables_events_are_told_in_the_active_language():
    from tables.audiences.narration import event_text
    from tables.changes import services
    from tables.models import TableEvent

    table, _secret = services.table_open(rules_key="clasico", host_name="Ana")
    opened = TableEvent.objects.get(table=table, kind="opened")
    seats = {s.number: s for s in table.seats.all()}
    assert said("es", event_text, opened, seats) == "Ana abrió la mesa."
    assert said("en", event_text, opened, seats) == "Ana opened the table."
    assert said("pt-br", event_text, opened, seats) == "Ana abriu a mesa."
    over = TableEvent(
        table=table, version=9, kind="round_over", created_at=opened.created_at,
        data={"points": {"0": 1}, "scoring": "winner_takes"},
    )
    assert said("en", event_text, over, seats) == "Ana won the round with 1 point."
    over.data["points"] = {"0": 12}
    assert said("pt-br", event_text, over, seats) == "Ana ganhou a rodada com 12 pontos."
