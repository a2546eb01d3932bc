"""The page-weight budget: a first visit to a table page transfers at most 150 KB compressed
(as in production: DEBUG off, WhiteNoise's compressed static files), court figures included,
and fetches only the figures of the viewer's deck that are on screen."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

import ocholoco
from bench.page_weight import BUDGET, first_visit, static_files
from tests.browser.helpers import open_table
from tests.live import live_servers, set_round
from tests.tables.helpers import position

# Five figures on screen, where a deal shows one or two on average.
ANA = ["KH", "QS", "JD", "KD", "7C", "AS", "2H"]
TOP = "QC"


@pytest.fixture(scope="module")
def production():
    """A production server (DEBUG off, WhiteNoise's compressed files) on static files of its
    own: each pytest worker that runs this module collects its own (a shared STATIC_ROOT
    rewritten by two workers at once failed collectstatic: a file gone between its write and
    its chmod)."""
    with static_files() as settings, live_servers(1, **settings) as servers:
        yield servers


@pytest.mark.parametrize("deck", ["clasica", "reino"])
def test_a_first_visit_to_a_table_with_five_figures_stays_within_150_kb(
    browser, new_page, production, deck
):
    url = production[0]
    host = new_page()
    table_url = open_table(host, url, "Ana")
    host.click("text=AGREGAR ROBOT")
    host.click("text=EMPEZAR LA PARTIDA")
    expect(host.locator("#panel .hand .card").first).to_be_visible()
    code = table_url.rstrip("/").split("/")[-1]
    set_round(production, code, ocholoco.to_json(
        position("clasico", [ANA, ["3S", "4H", "5D"]], TOP, stock=("9S", "9D"))))
    cookies = [c for c in host.context.cookies() if c["name"] != "baraja"]
    cookies.append({"name": "baraja", "value": deck, "domain": "127.0.0.1", "path": "/"})

    sizes, _ = first_visit(browser, url, table_url, cookies)

    art = "francesa" if deck == "clasica" else deck
    figures = sorted(re.sub(r"\.[0-9a-f]{12}\.svg$", "", name.split("/static/cards/")[1])
                     for name in sizes if name.startswith("/static/cards/"))
    assert figures == sorted(f"{art}/{c}" for c in ("KH", "QS", "JD", "KD", "QC"))
    assert sum(sizes.values()) <= BUDGET, sizes
    # Every module comes once, under its hashed name: an import left unhashed by collectstatic
    # would fetch (and run) a second copy of it.
    scripts = [name for name in sizes if name.startswith("/static/js/")]
    assert scripts and all(re.search(r"\.[0-9a-f]{12}\.js$", name) for name in scripts), scripts
