"""Colours of the companion: light and dark themes with text contrast of 4.5:1 or more,
and player colours from the Okabe-Ito colour-blind-safe palette (always shown with a name)."""

from __future__ import annotations

THEMES: dict[str, dict[str, str]] = {
    "light": {"bg": "#F7F4EC", "panel": "#FFFFFF", "text": "#1B1B1B", "muted": "#55524B", "accent": "#1F4E8C",
              "button": "#1F4E8C", "button_text": "#FFFFFF", "active": "#FFF1C7", "error": "#A3161A",
              "error_bg": "#FDECEC", "disabled": "#D9D6CE", "disabled_text": "#55524B"},
    "dark": {"bg": "#14161A", "panel": "#1F2228", "text": "#F2F2F2", "muted": "#B5B9C2", "accent": "#8DB8F2",
             "button": "#2C5FA8", "button_text": "#FFFFFF", "active": "#3A3320", "error": "#FF9A9A",
             "error_bg": "#3A1C1C", "disabled": "#44474E", "disabled_text": "#B5B9C2"},
}
# "disabled": the fill of every greyed-out button and key, a grey of its own (neither a live button's blue, the
# panel of a flat one nor a lit key's), with "disabled_text" on it still at 4.5:1
# text colour -> backgrounds it is drawn on
TEXT_PAIRS = [("text", "bg"), ("text", "panel"), ("muted", "bg"), ("muted", "panel"), ("accent", "bg"),
              ("accent", "panel"), ("button_text", "button"), ("text", "active"), ("error", "error_bg"),
              ("disabled_text", "disabled")]
LIVE_FILLS = ("button", "panel", "active")  # what live buttons and keys are filled with: "disabled" is none of them

PLAYER_COLOURS = {"blue": "#0072B2", "vermillion": "#D55E00", "green": "#009E73", "purple": "#CC79A7",
                  "orange": "#E69F00", "sky": "#56B4E9", "yellow": "#F0E442"}  # yellow: the 7th, for Hasty's 7 players


def rgba(hexstr: str, alpha: float = 1.0) -> tuple[float, float, float, float]:
    h = hexstr.lstrip("#")
    return (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255, alpha)


def _luminance(hexstr: str) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b, _ = rgba(hexstr)
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio between two colours."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def blend(colour: str, under: str, alpha: float) -> str:
    """`colour` drawn at `alpha` over the opaque `under`, as #RRGGBB."""
    top, base = rgba(colour), rgba(under)
    return "#" + "".join(f"{round((t * alpha + b * (1 - alpha)) * 255):02X}"
                       for t, b in zip(top[:3], base[:3], strict=True))


def text_on(fill: str) -> str:
    """Black or white, whichever reads better on `fill` (one of them always reaches 4.5:1)."""
    return "#000000" if contrast("#000000", fill) >= contrast("#FFFFFF", fill) else "#FFFFFF"


def readable(colour: str, background: str, ratio: float = 3.0) -> str:
    """`colour` mixed toward white or black (whichever the background is not) until it stands out
    from `background` by `ratio` (3:1, WCAG's bar for symbols and other non-text shapes)."""
    target = 0.0 if _luminance(background) > 0.18 else 1.0
    r, g, b, _ = rgba(colour)
    for step in range(21):
        mix = step / 20
        rgb = [c + (target - c) * mix for c in (r, g, b)]
        out = "#" + "".join(f"{round(c * 255):02X}" for c in rgb)
        if contrast(out, background) >= ratio:
            return out
    return out
