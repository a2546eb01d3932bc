"""A finished round in Chromium: its match downloaded, its deal checked with Web Crypto, its
replay stepped through with the arrow keys (desktop) and the buttons (phone)."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import expect

from tests.browser.chromium import PHONE

from .helpers import open_table, play_round


def test_after_a_round_the_deal_checks_out_in_the_browser_and_the_round_replays(
    new_page, server_url
):
    ana = new_page()
    open_table(ana, server_url, "Ana")
    ana.click("text=AGREGAR ROBOT")
    expect(ana.locator("#board .badge")).to_contain_text("Robot")
    ana.click("text=EMPEZAR LA PARTIDA")
    expect(ana.locator("#panel .hand .card")).to_have_count(7)
    commitment = ana.locator("#board").get_attribute("data-deal-commitment")
    assert re.fullmatch(r"[0-9a-f]{64}", commitment)
    expect(ana.locator("#board .deal-print")).to_contain_text(commitment[:8])
    expect(ana.locator("[data-deal-reveal]")).to_have_count(0)

    play_round([ana])
    reveal = ana.locator("#panel .summary [data-deal-reveal]").get_attribute("data-deal-reveal")
    assert reveal.startswith("ocholoco-reparto-1 sal=")

    # Descargar la partida: the transcript, with the deal's commitment and its reveal.
    with ana.expect_download() as download:
        ana.click("#panel .summary >> text=Descargar la partida")
    assert download.value.suggested_filename.endswith("-partida-1.txt")
    told = Path(download.value.path()).read_text(encoding="utf-8")
    assert told.startswith("Ocho Loco · Partida 1") and commitment in told and reveal in told

    # ¿Fue justo el reparto? The browser hashes the revealed text and deals its deck.
    ana.click("#panel .summary >> text=¿Fue justo el reparto?")
    ana.wait_for_load_state()
    expect(ana.locator("#commitment")).to_have_text(commitment)
    expect(ana.locator("#reveal")).to_have_value(reveal)
    ana.click("text=Comprobar en este navegador")
    results = ana.locator("[data-fairness-results]")
    expect(results).to_have_attribute("data-checked", "ok")
    expect(results.locator("li.ok")).to_have_count(2)
    expect(results).to_contain_text("Repartido ese mazo, salen exactamente las manos")

    # Ver la ronda, with the keyboard.
    ana.click("text=Ver la ronda")
    ana.wait_for_load_state()  # replay.js (deferred) listens for the keys
    steps = ana.locator(".replay-step")
    expect(steps).to_contain_text("Reparto")
    last = int(ana.locator("#replay").get_attribute("data-last"))
    ana.keyboard.press("ArrowRight")
    expect(steps).to_have_text(f"Jugada 1 de {last}")
    assert ana.url.endswith("?jugada=1")
    ana.keyboard.press("End")
    expect(steps).to_have_text(f"Jugada {last} de {last}")
    expect(ana.locator(".replay-end")).to_contain_text("Gana la ronda")
    # htmx has settled the new position (its address is pushed) before the next key.
    ana.wait_for_url(re.compile(rf"\?jugada={last}$"))
    ana.keyboard.press("ArrowLeft")
    expect(steps).to_have_text(f"Jugada {last - 1} de {last}")

    # On a phone, with the buttons; every hand shows face up.
    phone = new_page(PHONE, has_touch=True)
    phone.goto(ana.url.split("?")[0])
    phone.tap("#replay [data-replay=next]")
    expect(phone.locator(".replay-step")).to_have_text(f"Jugada 1 de {last}")
    expect(phone.locator(".replay-hand")).to_have_count(2)
    assert phone.locator(".replay-hand .card").count() >= 13  # 7 + 7, one card played
    assert phone.evaluate("document.documentElement.scrollWidth <= innerWidth")
