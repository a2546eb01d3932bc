"""The court cards' artwork in static/cards/ is what scripts/card_art.py derives from the npm
package svg-cards (installed by scripts/setup.sh), and ships with the package's licence."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CARDS = ROOT / "static" / "cards"


def test_the_committed_artwork_is_what_the_script_derives_from_the_package():
    check = subprocess.run(
        [sys.executable, "scripts/card_art.py", "--check"], cwd=ROOT, capture_output=True, text=True
    )
    assert check.returncode == 0, check.stderr


def test_every_colouring_has_the_twelve_figures_and_the_joker_with_credit_and_licence():
    codes = {rank + suit for rank in "KQJ" for suit in "SHDC"} | {"JK"}
    for art in ("francesa", "cuatro-colores", "reino"):
        files = {path.stem: path.read_text() for path in (CARDS / art).glob("*.svg")}
        assert set(files) == codes
        assert all("David Bellot" in text and "LGPL-2.1" in text for text in files.values())
        assert all("<text" not in text for text in files.values())  # no font-drawn index
    assert "GNU LESSER GENERAL PUBLIC LICENSE" in (CARDS / "LICENSE.txt").read_text()
