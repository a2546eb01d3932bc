"""bench/same_pages.py's normalizer hides only what it lists, and its players follow the policy."""

from __future__ import annotations

from collections import Counter

from bench.same_pages import normalize, policy


def test_each_rule_replaces_what_it_names_and_counts_it():
    page = (
        '<input type="hidden" name="csrfmiddlewaretoken" value="' + "a1" * 32 + '">'
        '<body hx-headers=\'{"X-CSRFToken": "' + "Zz9" * 16 + '"}\'>'
        '<input value="http://127.0.0.1:41234/volver/' + "s" * 32 + '/">'
        '<a href="/mesa/AbC-12_xyZ09/">'
        '<link href="/static/js/socket.0123456789ab.js">'
        '<time datetime="2026-12-07T04:09:30.178152+00:00"></time>'
        'filename="ocholoco-20261207-0409-partida-1.txt" '
        "Descargada el 07/12/2026 a las 04:09 (UTC). "
        "Clásico · 7 Dic"
    )
    counts: Counter = Counter()
    text = normalize(page.encode(), {"AbC-12_xyZ09": "{PLAYER_CODE}"}, counts)
    assert text == (
        '<input type="hidden" name="csrfmiddlewaretoken" value="{CSRF}">'
        '<body hx-headers=\'{"X-CSRFToken": "{CSRF}"}\'>'
        '<input value="http://127.0.0.1:{PORT}/volver/{SECRET}/">'
        '<a href="/mesa/{PLAYER_CODE}/">'
        '<link href="/static/js/socket.{HASH}.js">'
        '<time datetime="{DATETIME}"></time>'
        'filename="ocholoco-{STAMP}-partida-1.txt" '
        "Descargada el {DATE} a las {TIME} (UTC). "
        "Clásico · {DATE}"
    )
    applied = {name for name, count in counts.items() if count}
    assert all(counts[name] == 1 for name in applied)
    assert applied == {
        "literal {PLAYER_CODE}", "seat-secret", "csrf-field", "csrf-header", "static-hash",
        "port", "datetime", "file-stamp", "date", "date-words", "clock",
    }


def test_the_game_is_left_alone():
    game = (
        '<section id="board" data-version="40"><li>Robotina jugó el 8 de diamantes y pidió '
        "corazones</li><li>Ana jugó el 2 de picas</li><li>Beto robó 3 cartas</li>"
        '<span class="score">51 pts</span><code>2bfb8713</code> '
        "sal=519e404afdb786b3a21ea66ac7eb25b2"
        '<a href="ronda/1/justo/">'
    )
    counts: Counter = Counter()
    assert normalize(game.encode(), {}, counts) == game
    assert sum(counts.values()) == 0


PANEL = """<section id="panel" class="panel" data-version="12">
<form class="hand" method="post" action="jugar/" hx-post="jugar/">
<input type="hidden" name="csrfmiddlewaretoken" value="t">
<input type="hidden" name="version" value="12">
<label class="announce"><input type="checkbox" name="announce" value="1"> ¡ÚLTIMA CARTA!</label>
<button class="card suit-spades rank-5" data-card="5S" type="button" data-why="no">5</button>
<button class="card suit-diamonds rank-8 playable" data-card="8D" data-playable
  type="button" data-needs-suit="suits-8D">8</button>
<dialog class="suit-dialog" id="suits-8D"><div class="suits">
<button class="btn suit" name="move" value="8D:S">♠</button>
<button class="btn suit" name="move" value="8D:H">♥</button></div></dialog>
<button class="card suit-hearts rank-4 playable" data-card="4H" data-playable
  name="move" value="4H">4</button>
</form></section>"""


def test_the_policy_plays_the_first_playable_card_and_an_8_names_its_first_suit():
    form, data = policy(PANEL)
    assert form.posts_to == "jugar/"
    assert data == {"csrfmiddlewaretoken": "t", "version": "12", "move": "8D:S", "announce": "1"}


def test_with_no_card_to_play_the_policy_draws_else_passes():
    actions = (
        '<form class="action-form" hx-post="jugar/"><input type="hidden" name="version" value="3">'
        '{}</form><form class="hand" hx-post="jugar/"><button class="card" data-card="5S" '
        'type="button">5</button></form>'
    )
    draw = '<button class="btn primary" name="move" value="draw" data-draw>ROBAR</button>'
    passing = '<button class="btn primary" name="move" value="pass">PASAR</button>'
    assert policy(actions.replace("{}", draw))[1] == {"version": "3", "move": "draw"}
    assert policy(actions.replace("{}", passing))[1] == {"version": "3", "move": "pass"}
    assert policy(actions.replace("{}", "")) is None
