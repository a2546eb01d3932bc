"""The repository stands on its own: its docs are in it, linked from the README, and nothing
in it refers to a file outside it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEXT = {".py", ".md", ".html", ".js", ".css", ".sh", ".txt", ".toml", ".cfg", ".json", ""}
DOCS = ["docs/rules.md", "docs/architecture.md", "docs/operating.md", "docs/performance.md"]
# Built from parts, so that this file does not match itself.
OUTSIDE = [
    re.compile(r"\.\./" + "shared"),
    re.compile(r"(?<![\w/])/" + r"work/"),
    re.compile(r"(?<![\w/.-])(?:RULES|DESIGN|STYLE)\." + "md"),
    re.compile(r"\bseeds?/|\bseed 00" + r"\d"),
]


def _files() -> list[Path]:
    """The repository's files (tracked, or new and not ignored): no caches, venvs or data."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.splitlines()
    return [ROOT / name for name in listed if Path(name).suffix in TEXT and (ROOT / name).is_file()]


def test_the_readme_links_the_projects_own_docs_and_each_exists():
    readme = (ROOT / "README.md").read_text()
    for doc in DOCS:
        assert f"]({doc})" in readme, doc
        assert (ROOT / doc).stat().st_size > 1000, doc


def test_every_relative_link_in_the_docs_points_inside_the_repository():
    for doc in ["README.md", *DOCS]:
        text = (ROOT / doc).read_text()
        for target in re.findall(r"\]\(([^)#]+)\)", text):
            if "://" in target:
                continue
            resolved = (ROOT / doc).parent.joinpath(target).resolve()
            assert resolved.is_relative_to(ROOT) and resolved.exists(), (doc, target)


def test_nothing_in_the_repository_refers_to_files_outside_it():
    found = []
    for path in _files():
        text = path.read_text(errors="ignore")
        for pattern in OUTSIDE:
            for match in pattern.finditer(text):
                found.append(f"{path.relative_to(ROOT)}: {match.group(0)}")
    assert found == []


def test_the_pages_scripts_are_modules_that_share_nothing_through_window():
    """Our scripts load as ES modules and talk through import/export only: no object of ours
    hung on `window` for another file to read, and no module copies what helpers.js holds."""
    scripts = sorted((ROOT / "static" / "js").glob("*.js"))
    assert scripts
    for script in scripts:
        text = script.read_text()
        assert not re.search(r"\bwindow\.\w+\s*=[^=]", text), script.name
        assert not re.search(r"\bwindow\.ocholoco", text), script.name
        if script.name != "helpers.js":
            assert not re.search(
                r"function (toast|reduceMotion|versionOf|playCard|isMove|isAct)\b", text
            ), script.name
    tags = [
        tag for html in (ROOT / "templates").rglob("*.html")
        for tag in re.findall(r"<script[^>]*\bsrc=[^>]*>", html.read_text())
        if "js/" in tag and "django_htmx" not in tag
    ]
    assert tags and all('type="module"' in tag for tag in tags), tags


def test_the_table_pages_modules_load_on_table_pages_only():
    """Every page loads the module that tells a failed answer; the table's modules (the socket,
    the moves, the controls...) come with the table page's own `scripts` block."""
    base = (ROOT / "templates" / "base.html").read_text()
    table = (ROOT / "templates" / "tables" / "table.html").read_text()
    loaded = re.findall(r"static 'js/(\w+)\.js'", base)
    assert loaded == ["answers"]
    for module in ("table", "feel", "controls", "ear", "moves", "alerts", "socket"):
        assert f"js/{module}.js" in table, module


def test_no_test_counts_on_xdist_group_to_keep_it_apart():
    """pytest-xdist's `xdist_group` is silently ignored with pytest 9 (xdist 3.8 puts the group
    in a private attribute of the test's id that pytest 9 no longer reads): a test that needed
    it would run beside the tests it was to be kept from. Each test owns what it writes."""
    users = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "tests").rglob("*.py")
        if re.search(r"mark\.xdist_group\b", path.read_text())
    ]
    assert users == []


def test_every_browser_test_waits_on_a_page_through_wait_until():
    """Playwright's `wait_for_function` asks on every animation frame unless told otherwise,
    which keeps a waiting page drawing (tests/browser/helpers.py, POLL_MS): every wait on a
    page's script goes through `wait_until`, its one caller."""
    callers = [
        (str(path.relative_to(ROOT)), line.strip())
        for path in sorted((ROOT / "tests").rglob("*.py"))
        if path != Path(__file__)
        for line in path.read_text().splitlines()
        if "wait_for_function(" in line
    ]
    assert callers == [
        ("tests/browser/helpers.py",
         "return page.wait_for_function(expression, arg=arg, polling=POLL_MS)")
    ]
