"""What a reviewer expects of a site reachable by anyone with a link: a Content-Security-Policy
with no inline code, HTTPS settings from the environment, limits that hold across processes
and who the client is behind a trusted proxy."""

from __future__ import annotations

import http.cookiejar
import os
import re
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from django.test import RequestFactory

from tables.web.clients import client_address
from tests.live import ROOT, live_servers

from .helpers import Person

TEMPLATES = Path(ROOT, "templates")


@pytest.mark.django_db
def test_every_page_has_a_content_security_policy_without_inline_code_or_eval():
    table = Person("Ana").open_table()
    for path in ("/", f"/mesa/{table.code}/", "/mis-mesas/"):
        policy = Person().get(path)["Content-Security-Policy"]
        directives = dict(d.strip().split(" ", 1) for d in policy.split(";") if d.strip())
        assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
        assert directives["object-src"] == "'none'" and directives["frame-ancestors"] == "'none'"
        assert "unsafe" not in policy


@pytest.mark.parametrize("template", sorted(TEMPLATES.rglob("*.html")), ids=str)
def test_no_template_holds_an_inline_script_style_or_event_handler(template: Path):
    html = template.read_text()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "inline <script>"
    assert "<style" not in html, "inline <style>"
    assert not re.search(r"\sstyle=", html), "style attribute"
    assert not re.search(r"\son[a-z]+=", html), "inline event handler"
    assert "hx-on" not in html, "hx-on (evaluated code)"


def test_the_production_settings_pass_django_deploy_checks():
    env = {
        key: value for key, value in os.environ.items()
        if key not in ("DEBUG", "SECURE_COOKIES", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS")
    }  # fmt: skip
    env.update(
        DEBUG="0", SECRET_KEY="k" + os.urandom(40).hex(), ALLOWED_HOSTS="ocholoco.example",
        DJANGO_SETTINGS_MODULE="config.settings",
    )  # fmt: skip
    check = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert check.returncode == 0, check.stdout + check.stderr
    assert "no issues" in check.stdout
    shown = subprocess.run(
        [sys.executable, "manage.py", "shell", "-v", "0", "-c",
         "from django.conf import settings as s; "
         "print(s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, s.SESSION_COOKIE_SECURE)"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert shown.stdout.split() == ["True", "31536000", "True"]


def test_the_client_is_the_connecting_address_unless_that_is_a_trusted_proxy(settings):
    factory = RequestFactory()
    forged = {"HTTP_X_FORWARDED_FOR": "203.0.113.9"}
    assert client_address(factory.get("/", REMOTE_ADDR="198.51.100.4", **forged)) == "198.51.100.4"

    settings.TRUSTED_PROXIES = ["127.0.0.1", "10.0.0.0/8"]
    behind = factory.get(
        "/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.9, 198.51.100.4, 10.1.2.3"
    )
    # The client may prepend anything; the last address the trusted proxies did not add is it.
    assert client_address(behind) == "198.51.100.4"
    garbage = factory.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="<script>")
    assert client_address(garbage) == "127.0.0.1"


class Browserless:
    """A client with a cookie jar, for a live server (as a script or curl would be)."""

    def __init__(self) -> None:
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name: str) -> str:
        return next(c.value for c in self.jar if c.name == name)

    def get(self, url: str) -> str:
        with self.opener.open(url, timeout=20) as response:
            return response.geturl()

    def post(self, url: str, data: dict[str, str], htmx: bool = True) -> int:
        headers = {"X-CSRFToken": self.cookie("csrftoken"), "Referer": url}
        if htmx:
            headers["HX-Request"] = "true"
        body = urllib.parse.urlencode(data).encode()
        request = urllib.request.Request(url, body, headers=headers)
        try:
            with self.opener.open(request, timeout=20) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code


def test_the_limits_hold_across_two_server_processes():
    # Windows of a day: the counts cannot straddle two (the servers' clocks are real).
    with live_servers(2, RATE_TABLE_OPEN="4/d", RATE_CHAT="5/d") as servers:
        host = Browserless()
        host.get(servers[0] + "/")  # a CSRF cookie, as a first visit gives
        opened = [
            host.post(servers[n % 2] + "/abrir/", {"name": "Ana", "rules": "clasico"}, htmx=False)
            for n in range(6)
        ]  # each opened table sends the browser on to it (200 after the redirect)
        assert opened.count(200) == 4 and opened.count(429) == 2, opened

        code = _my_first_table(host, servers[0])
        posts = [
            host.post(servers[n % 2] + f"/mesa/{code}/chat/", {"text": f"hola {n}"})
            for n in range(10)
        ]
        assert posts.count(200) == 5 and posts.count(429) == 5, posts


def _my_first_table(client: Browserless, base: str) -> str:
    with client.opener.open(base + "/mis-mesas/", timeout=20) as response:
        html = response.read().decode()
    return re.search(r'href="/mesa/([^/"]+)/"', html).group(1)
