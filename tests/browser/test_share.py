"""Passing the invitation on from a phone, in Chromium: COMPARTIR opens the system's share
sheet where the browser has one, COPIAR is always there (and alone where it has none), and the
invitation's QR code, read by a QR decoder from what the page shows, is the invitation."""

from __future__ import annotations

import io
import re

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import Page, expect

from tests.browser.chromium import DESKTOP, PHONE
from tests.browser.helpers import open_table, wait_until

pytestmark = pytest.mark.browser

SIZES = pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
# A share sheet that records what it was given (and says it was shared, as a phone's does).
SHARE_SHEET = "navigator.share = d => { window.shared = d; return Promise.resolve(); };"
# A browser without one (Chromium has none on Linux; said here, so the test holds anywhere).
NO_SHARE_SHEET = "delete Navigator.prototype.share; delete navigator.share;"


def _host_page(new_page, server_url: str, size: dict, script: str) -> tuple[Page, str]:
    page = new_page(viewport=size, has_touch=size is PHONE)
    page.context.add_init_script(script)
    return page, open_table(page, server_url, "Ana")


@SIZES
def test_without_a_share_sheet_compartir_is_absent_and_copiar_copies_the_invitation(
    new_page, server_url, size
):
    page, invitation = _host_page(new_page, server_url, size, NO_SHARE_SHEET)
    assert page.evaluate("typeof navigator.share") == "undefined"
    invite = page.locator(".invite")
    expect(invite.get_by_role("button", name="COPIAR")).to_be_visible()
    expect(invite.get_by_role("button", name="COMPARTIR")).to_be_hidden()
    expect(page.locator("#invite-link")).to_have_value(invitation)
    invite.get_by_role("button", name="COPIAR").click()
    expect(page.locator("#toast")).to_have_text("¡Enlace copiado!")


@SIZES
def test_with_a_share_sheet_compartir_shares_the_invitation_and_a_sentence(
    new_page, server_url, size
):
    page, invitation = _host_page(new_page, server_url, size, SHARE_SHEET)
    invite = page.locator(".invite")
    expect(invite.get_by_role("button", name="COPIAR")).to_be_visible()
    share = invite.get_by_role("button", name="COMPARTIR")
    expect(share).to_be_visible()
    share.click()
    shared = wait_until(page, "window.shared").json_value()
    assert shared["url"] == invitation
    assert "Ocho Loco" in shared["text"]
    # The menu's invitation has it too, beside its COPIAR.
    page.click("[data-open-menu]")
    expect(page.locator("#menu").get_by_role("button", name="COMPARTIR")).to_be_visible()


def test_a_failing_share_sheet_falls_back_to_copiar(new_page, server_url):
    failing = "navigator.share = () => Promise.reject(new DOMException('no', 'NotAllowedError'));"
    page, _ = _host_page(new_page, server_url, PHONE, failing)
    page.locator(".invite").get_by_role("button", name="COMPARTIR").click()
    expect(page.locator("#toast")).to_have_text("¡Enlace copiado!")


@SIZES
def test_the_tables_qr_code_decodes_to_the_invitation(new_page, server_url, size):
    page, invitation = _host_page(new_page, server_url, size, NO_SHARE_SHEET)
    page.get_by_text("Código QR").click()
    qr = page.get_by_role("img", name=re.compile("^Código QR de la mesa"))
    expect(qr).to_be_visible()
    wait_until(page, "document.querySelector('.invite-qr img').complete")
    shown = Image.open(io.BytesIO(qr.screenshot()))
    assert [found.text for found in zxingcpp.read_barcodes(shown)] == [invitation]
