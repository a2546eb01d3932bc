"""The picture of an invitation's preview (og:image), drawn with Pillow: 1200×630 PNG.

Drawn from an `InvitationPreview` only, so nothing a spectator could not see can reach it: the
Clásica back (a preview has no viewer's deck), the pile's top card once dealt, who invites, the
rules, the free seats or the scores. Each distinct preview is drawn once and kept (a bounded
cache in the process).
"""

from __future__ import annotations

import io
from functools import lru_cache

from django.utils.translation import gettext as _
from django.utils.translation import override, pgettext
from PIL import Image, ImageDraw, ImageFont

import ocholoco
from tables.audiences.cards import SUIT_SYMBOLS
from tables.invitation.preview import (
    CHANGED,
    HEIGHT,
    LOBBY,
    MATCH_OVER,
    ROUND_OVER,
    WIDTH,
    InvitationPreview,
)

# Debian's fonts-dejavu-core (scripts/setup.sh installs it): every accent and the suit signs.
FONT_DIR = "/usr/share/fonts/truetype/dejavu/"
SANS, BOLD, SERIF_BOLD = "DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif-Bold.ttf"

FELT, FELT_DARK = (13, 92, 58), (8, 64, 42)
ACCENT, MUTED, WHITE = (255, 194, 51), (201, 220, 207), (255, 255, 255)
PAPER, INK, RED = (255, 253, 247), (27, 27, 31), (200, 16, 46)
BACK, BACK_EDGE = (168, 24, 47), (233, 227, 214)
PILL = (44, 112, 83)  # a white veil over the felt, as the page's badges
CARD_W, CARD_H = 230, 322

# Pictures kept per process (each 60-100 KB): the busy tables' current ones.
KEPT = 64


@lru_cache(maxsize=32)
def _font(name: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(FONT_DIR + name, size)


def _felt() -> Image.Image:
    """The table's felt: lighter in the middle, as on the page."""
    glow = Image.radial_gradient("L").resize((1800, 1400)).crop((300, 510, 1500, 1140))
    return Image.composite(Image.new("RGB", (WIDTH, HEIGHT), FELT_DARK),
                           Image.new("RGB", (WIDTH, HEIGHT), FELT), glow)


def _back() -> Image.Image:
    """A card's back in the Clásica design: red, a white lattice, a white border."""
    card = Image.new("RGBA", (CARD_W, CARD_H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(card)
    draw.rounded_rectangle((0, 0, CARD_W - 1, CARD_H - 1), radius=18, fill=WHITE,
                           outline=(0, 0, 0, 60))
    lattice = Image.new("RGBA", (CARD_W, CARD_H), BACK)
    lines = ImageDraw.Draw(lattice)
    for x in range(-CARD_H, CARD_W + CARD_H, 14):
        lines.line((x, 0, x + CARD_H, CARD_H), fill=(255, 255, 255, 110), width=2)
        lines.line((x, CARD_H, x + CARD_H, 0), fill=(255, 255, 255, 110), width=2)
    mask = Image.new("L", (CARD_W, CARD_H), 0)
    ImageDraw.Draw(mask).rounded_rectangle((10, 10, CARD_W - 11, CARD_H - 11), radius=10, fill=255)
    card.paste(lattice, (0, 0), mask)
    return card


def _face(code: str) -> Image.Image:
    """The face of the pile's top card: ivory, its rank and suit in two corners, a big suit."""
    card_ = ocholoco.Card.parse(code)
    card = Image.new("RGBA", (CARD_W, CARD_H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(card)
    draw.rounded_rectangle((0, 0, CARD_W - 1, CARD_H - 1), radius=18, fill=PAPER,
                           outline=(0, 0, 0, 70), width=2)
    if card_.is_joker:
        rank, symbol, colour = "★", "★", RED
    else:
        rank, symbol = card_.rank, SUIT_SYMBOLS[card_.suit]
        colour = RED if card_.suit in "HD" else INK
    corner = _font(SERIF_BOLD, 46)
    mark = _font(SANS, 38)
    draw.text((34, 16), rank, font=corner, fill=colour, anchor="ma")
    draw.text((34, 70), symbol, font=mark, fill=colour, anchor="ma")
    upside = Image.new("RGBA", (CARD_W, CARD_H), (0, 0, 0, 0))
    turned = ImageDraw.Draw(upside)
    turned.text((34, 16), rank, font=corner, fill=colour, anchor="ma")
    turned.text((34, 70), symbol, font=mark, fill=colour, anchor="ma")
    card.alpha_composite(upside.rotate(180))
    draw.text((CARD_W // 2, CARD_H // 2), symbol, font=_font(SANS, 150), fill=colour, anchor="mm")
    return card


def _shadowed(base: Image.Image, card: Image.Image, at: tuple[int, int], angle: float) -> None:
    turned = card.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True)
    shadow = Image.new("RGBA", turned.size, (0, 0, 0, 0))
    shadow.putalpha(turned.getchannel("A").point(lambda a: a * 0.45))
    base.alpha_composite(shadow, (at[0] + 6, at[1] + 10))
    base.alpha_composite(turned, at)


def _stock(base: Image.Image, at: tuple[int, int]) -> None:
    """The stock: a few backs, their edges showing (as on the page)."""
    back = _back()
    edge = Image.new("RGBA", back.size, (0, 0, 0, 0))
    ImageDraw.Draw(edge).rounded_rectangle((0, 0, CARD_W - 1, CARD_H - 1), radius=18,
                                           fill=BACK_EDGE, outline=(0, 0, 0, 60))
    for depth in (4, 3, 2, 1):
        base.alpha_composite(edge, (at[0] + depth * 5, at[1] + depth * 5))
    _shadowed(base, back, at, 0)


def _fit(draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont, width: int) -> str:
    """`text`, cut with "…" to fit in `width` pixels."""
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _wrap(draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont, width: int,
          lines: int) -> list[str]:
    """`text` in at most `lines` lines of `width` pixels (the last one cut if need be)."""
    words, out = text.split(), []
    while words and len(out) < lines:
        line = words.pop(0)
        while words and draw.textlength(line + " " + words[0], font=font) <= width:
            line += " " + words.pop(0)
        out.append(line)
    if words:
        out[-1] = _fit(draw, out[-1] + " " + " ".join(words), font, width)
    return [_fit(draw, line, font, width) for line in out]


def _seats(draw: ImageDraw.ImageDraw, preview: InvitationPreview, x: int, y: int, width: int
           ) -> None:
    """Before the match: one chip a seat, the seated by name, the free ones open."""
    size = 30 if preview.seat_count <= 4 else 24
    font = _font(BOLD, size)
    per_row = 2 if preview.seat_count > 4 else 1
    column = width // per_row
    step = size + 22
    names = list(preview.seated) + [""] * preview.free_seats
    for i, name in enumerate(names):
        cx, cy = x + (i % per_row) * column, y + (i // per_row) * step
        r = size // 2 + 2
        if name:
            draw.ellipse((cx, cy + 4, cx + 2 * r, cy + 4 + 2 * r), fill=ACCENT)
            text, colour = _fit(draw, name, font, column - 2 * r - 24), WHITE
        else:
            draw.ellipse((cx, cy + 4, cx + 2 * r, cy + 4 + 2 * r), outline=MUTED, width=3)
            text, colour = _("Lugar libre"), MUTED
        draw.text((cx + 2 * r + 14, cy), text, font=font, fill=colour)


def _scores(draw: ImageDraw.ImageDraw, preview: InvitationPreview, x: int, y: int, width: int
            ) -> None:
    """In the match: each player's name and total, the winners starred when it is over."""
    size = 34 if len(preview.scores) <= 4 else 24
    name_font, points_font = _font(SANS, size), _font(BOLD, size)
    for i, (name, total) in enumerate(preview.scores):
        row = y + i * (size + 14)
        star = "★ " if name in preview.winners else ""
        points = pgettext("points, short", "%(total)s pts") % {"total": total}
        room = width - draw.textlength(points, font=points_font) - 24
        draw.text((x, row), _fit(draw, star + name, name_font, room), font=name_font, fill=WHITE)
        draw.text((x + width, row), points, font=points_font, fill=ACCENT, anchor="ra")


def _state_text(preview: InvitationPreview) -> str:
    if preview.kind == LOBBY:
        state = preview.seats_text
    elif preview.kind == MATCH_OVER:
        state = _("partida terminada")
    elif preview.kind == ROUND_OVER:
        state = _("terminó la ronda %(round)s") % {"round": preview.round_number}
    else:
        round_number = preview.round_number
        state = _("ronda %(round)s") % {"round": round_number} if round_number else ""
    return state.capitalize()


def _draw(preview: InvitationPreview) -> Image.Image:
    """The picture, its words in the preview's language (the host's)."""
    if preview.language:
        with override(preview.language):
            return _drawn(preview)
    return _drawn(preview)


def _drawn(preview: InvitationPreview) -> Image.Image:
    image = _felt().convert("RGBA")
    draw = ImageDraw.Draw(image)
    # The cards: the stock, and the top card of the pile when a round is dealt.
    if preview.top:
        _stock(image, (60, 150))
        _shadowed(image, _face(preview.top), (250, 120), -8)
        if preview.active_suit:
            cx, cy = 480, 140
            draw.ellipse((cx - 42, cy - 42, cx + 42, cy + 42), fill=WHITE, outline=INK)
            colour = RED if preview.active_suit in "HD" else INK
            draw.text((cx, cy), SUIT_SYMBOLS[preview.active_suit],
                      font=_font(SANS, 56), fill=colour, anchor="mm")
    else:
        _stock(image, (140, 150))
    # The words.
    x, width = 570, WIDTH - 570 - 60
    draw.text((x, 58), "OCHO LOCO", font=_font(BOLD, 30), fill=ACCENT)
    # The title as big as fits in three lines (a long name makes it smaller).
    for size in (50, 44, 38):
        title = _font(BOLD, size)
        lines = _wrap(draw, preview.title, title, width, 3)
        if not lines[-1].endswith("…"):
            break
    y = 110
    for line in lines:
        draw.text((x, y), line, font=title, fill=WHITE)
        y += size + 12
    y += 14
    if preview.rules:
        label = _font(BOLD, 28)
        pill = draw.textlength(preview.rules, font=label) + 36
        draw.rounded_rectangle((x, y, x + pill, y + 48), radius=24, fill=PILL)
        draw.text((x + 18, y + 24), preview.rules, font=label, fill=WHITE, anchor="lm")
        state = _state_text(preview)
        if pill + 20 + draw.textlength(state, font=label) <= width:
            draw.text((x + pill + 20, y + 24), state, font=label, fill=ACCENT, anchor="lm")
        else:
            y += 56
            draw.text((x, y + 24), state, font=label, fill=ACCENT, anchor="lm")
        y += 76
    if preview.kind == LOBBY:
        _seats(draw, preview, x, y, width)
    elif preview.scores:
        _scores(draw, preview, x, y, width)
    elif preview.kind == CHANGED:
        for line in _wrap(draw, _("Pide el enlace nuevo a quien abrió la mesa."),
                          _font(SANS, 34), width, 3):
            draw.text((x, y), line, font=_font(SANS, 34), fill=MUTED)
            y += 46
    return image.convert("RGB")


@lru_cache(maxsize=KEPT)
def preview_png(preview: InvitationPreview) -> bytes:
    """The picture of `preview`, as PNG (drawn once, then kept)."""
    out = io.BytesIO()
    # Full colour (a palette bands the felt); 60-100 KB, about 0.1 s to compress.
    _draw(preview).save(out, format="PNG")
    return out.getvalue()
