"""Derives the court cards' artwork in static/cards/ from the npm package svg-cards.

    python scripts/card_art.py           writes static/cards/<art>/<card>.svg
    python scripts/card_art.py --check   exits 1 if the files differ from what it would write

svg-cards (David Bellot's French-pattern cards, LGPL-2.1, installed by scripts/setup.sh into
node_modules/) draws each king, queen and jack as one card with its frame, its corner indices
(text in DejaVu Serif) and the figure. The decks here draw their own face, corners and pips in
CSS, so each court card keeps only the picture: the two halves of the figure and the band
between them, cropped to the card's inner frame. The numbers are rounded to one decimal (a
tenth of a unit is a twentieth of a pixel on the largest card), the ids dropped, and svgo
(npm) shortens the path data: a figure is 10-15 KB compressed. The pictures come in three
colourings:

- `francesa`: the package's own colours (red, blue, yellow), for Clásica and Moderna;
- `cuatro-colores`: the red of each figure becomes its suit's colour (blue diamonds, green
  clubs, black spades), so even the picture tells the four suits apart;
- `reino`: the Kingdom's palette (purple, night blue, gold).

The joker (house rules) comes the same way, as `JK.svg`. Run it after updating the package;
tests/scripts/test_card_art.py checks that the committed files are what it writes.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "node_modules" / "svg-cards" / "svg-cards.svg"
SVGO = ROOT / "node_modules" / ".bin" / "svgo"
OUT = ROOT / "static" / "cards"
SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
HREF = f"{{{XLINK}}}href"

SUITS = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
FIGURES = {"K": "king", "Q": "queen", "J": "jack"}
# The inner frame of a court card, in the card's own units (the card is 169.075 x 244.64).
FRAME = (9.25, 4.85, 151.57, 233.94)
JOKER_BOX = (8.0, 36.0, 153.0, 172.0)
# The package's figure colours: red, blue, yellow.
RED, BLUE, YELLOW = "#E61408", "#1C1585", "#F8C20F"
SUIT_RED = {"H": "#C8102E", "D": "#1450B8", "C": "#137A2E", "S": "#2B2B33"}
COLOURINGS = {
    "francesa": lambda suit: {},
    "cuatro-colores": lambda suit: {RED: SUIT_RED[suit]} if suit else {},
    "reino": lambda suit: {RED: "#7B2AA3", BLUE: "#1F2A5C", YELLOW: "#D9A521"},
}
NUMBER = re.compile(r"-?\d+\.\d+")


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _rounded(text: str) -> str:
    def one_decimal(match: re.Match[str]) -> str:
        # "-0" stays: its sign is what separates it from the number before ("1-0.02").
        return f"{float(match.group()):.1f}".rstrip("0").rstrip(".")
    return NUMBER.sub(one_decimal, text)


def _references(element: ET.Element) -> list[str]:
    return [e.get(HREF, "")[1:] for e in element.iter() if _local(e.tag) == "use"]


def _serialize(element: ET.Element, keep: frozenset[str] = frozenset()) -> str:
    """Compact SVG markup: no ids but the `keep` ones, no namespace prefixes, numbers to one
    decimal."""
    tag = _local(element.tag)
    attributes = []
    for name, value in element.attrib.items():
        if name == "id" and value not in keep:
            continue
        if name == HREF:
            name = "href"
        elif name in ("width", "height") and tag == "use":
            continue  # <use> of a group ignores them
        attributes.append(f' {name}="{_rounded(value)}"')
    inner = "".join(_serialize(child, keep) for child in element)
    text = (element.text or "").strip()
    if inner or text:
        return f"<{tag}{''.join(attributes)}>{text}{inner}</{tag}>"
    return f"<{tag}{''.join(attributes)}/>"


CREDIT = (
    "<!-- From svg-cards 4.0.2 (c) 2005 David Bellot, 2016-2017 Huub de Beer, LGPL-2.1: "
    "see static/cards/README.md and LICENSE.txt. -->"
)


def _document(parts: list[ET.Element], defs: dict[str, ET.Element], box: tuple) -> str:
    view = " ".join(f"{n:g}" for n in box)
    kept = "".join(_serialize(defs[name], frozenset(defs)) for name in sorted(defs))
    body = "".join(_serialize(part) for part in parts)
    return f'<svg xmlns="{SVG}" viewBox="{view}"><defs>{kept}</defs>{body}</svg>'


def _optimized(files: dict[Path, str]) -> dict[Path, str]:
    """svgo (npm, one decimal) shortens the path data by another quarter; the credit goes on
    top of each file afterwards, since svgo drops comments."""
    with tempfile.TemporaryDirectory() as folder:
        names = {path: Path(folder) / f"{path.parent.name}-{path.name}" for path in files}
        for path, text in files.items():
            names[path].write_text(text)
        subprocess.run(
            [str(SVGO), "--quiet", "--precision", "1", "--multipass", *map(str, names.values())],
            check=True,
        )
        return {path: f"{CREDIT}\n{names[path].read_text().strip()}\n" for path in files}


def _with_defs(parts: list[ET.Element], ids: dict[str, ET.Element]) -> dict[str, ET.Element]:
    defs: dict[str, ET.Element] = {}
    pending = [name for part in parts for name in _references(part)]
    while pending:
        name = pending.pop()
        if name not in defs:
            defs[name] = ids[name]
            pending.extend(_references(ids[name]))
    return defs


def _court_picture(card: ET.Element, suit_name: str, figure: str) -> list[ET.Element]:
    """The card's group without its base, frame, corner indices and corner suits."""
    picture = ET.Element(card.tag, {"transform": card.get("transform", "")})
    for child in card:
        ref = child.get(HREF, "")[1:] if _local(child.tag) == "use" else ""
        if ref in ("base", figure, suit_name) or _local(child.tag) == "g" and (
            child.get("style", "").startswith("fill:none")  # the frame's four lines
            or any(_local(e.tag) == "use" for e in child)  # the big suits beside the figure
        ):
            continue
        picture.append(child)
    return [picture]


def _joker_picture(card: ET.Element) -> list[ET.Element]:
    full = next(e for e in card.iter() if e.get("id") == "joker_full")
    picture = ET.Element(card.tag, {"transform": card.get("transform", "")})
    picture.append(full)
    return [picture]


def artwork() -> dict[Path, str]:
    """Every file this script writes, by its path."""
    ids = {e.get("id"): e for e in ET.parse(SOURCE).getroot().iter() if e.get("id")}
    pictures: dict[str, tuple[str, list[ET.Element], tuple]] = {}
    for suit, suit_name in SUITS.items():
        for rank, figure in FIGURES.items():
            card = ids[f"{suit_name}_{figure}"]
            pictures[rank + suit] = (suit, _court_picture(card, suit_name, figure), FRAME)
    pictures["JK"] = ("", _joker_picture(ids["joker_black"]), JOKER_BOX)
    files = {}
    for art, colouring in COLOURINGS.items():
        for code, (suit, parts, box) in pictures.items():
            text = _document(parts, _with_defs(parts, ids), box)
            for old, new in colouring(suit).items():
                text = re.sub(re.escape(old), new, text, flags=re.IGNORECASE)
            files[OUT / art / f"{code}.svg"] = text
    return _optimized(files)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args()
    if not SOURCE.exists() or not SVGO.exists():
        print(f"{SOURCE.relative_to(ROOT)} is missing: run scripts/setup.sh", file=sys.stderr)
        return 2
    files = artwork()
    if args.check:
        stale = [p for p, text in files.items() if not p.exists() or p.read_text() != text]
        for path in stale:
            print(f"out of date: {path.relative_to(ROOT)}", file=sys.stderr)
        return 1 if stale else 0
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
