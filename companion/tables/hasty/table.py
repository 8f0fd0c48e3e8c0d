"""The Hasty Accusations table: the row of suspects (piles, the loupe, the murdered), a play in two taps
(the pile, then face down or the card played face up at the loupe), reviews walked card by card as the
table reveals them, murders, eliminations and the winner; each secret suspect (the Traitor too) shows
only behind its player's "hold to see"."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kivy.app import App
from kivy.core.text import Label as CoreLabel
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from casebook.companion.pictures import picture_for
from casebook.companion.screens import column
from casebook.companion.tables.base import GameTable
from casebook.companion.tables.hasty.pad import HastyPad
from casebook.companion.tables.setup import PickInOrder, SecretEntry, SetupSpec
from casebook.companion.theme import PLAYER_COLOURS, readable
from casebook.companion.widgets import (
    MARKUP,
    Tile,
    button,
    colour_bar,
    label,
    line_height,
    top_picture,
)
from casebook.rules.games import hasty

SET_VARIANT = "set_"  # the new-game toggles for the card sets: set_base, set_advanced, set_expert
MIN_TEXT = 12  # sp: no text on the table is smaller
BUST = 16  # dp: a suspect's picture in its tile's bottom left corner (the tile no taller for it)
RESTRICTION_SHORT = {"none": "", "must_loupe": "loupe only", "cant_loupe": "not at loupe",  # a line of a tile
                     "must_own": "only your own", "cant_own": "not your own"}  # four a row (landscape) at 12 sp


# --- the new game ----------------------------------------------------------------------------------

class HastyNewGame(SetupSpec):
    """Players, colours, card sets, variants; the row as dealt (or from a seed); each secret suspect."""

    secret_rules = ("setup_secrets",)  # a setup refused by this rule: the secrets entered are wrong, whoever's

    def for_form(self, db: Any, players: int, variants: list[str], picked: dict[str, list[str]],
                 by_seed: bool) -> SetupSpec:
        """The form for this many players and these toggles: the row's size, one secret per player."""
        traitor = "traitor" in variants
        size = hasty.ROW_SIZE[max(hasty.MIN_PLAYERS, min(hasty.MAX_PLAYERS, players))] + \
            (hasty.TRAITOR_ROW_EXTRA if traitor else 0)
        pick = replace(self.picks[0], count=size,
                       title=f"Lay {size} suspects in a row, then tap them here left to right")
        if by_seed:
            return replace(self, picks=[pick], secrets=[])
        row = picked.get("row", [])
        names = {s.id: s.name for s in hasty.suspects(db).values()}
        choices = [(s, names[s]) for s in row] or list(names.items())
        if traitor:
            choices.append((hasty.TRAITOR, "The Traitor"))
        secrets = [SecretEntry(f"secret_{i}", hasty.SUSPECTS, i, "secret suspect", "the secret suspect you were dealt",
                               "before the game starts", choices=choices, into="secrets") for i in range(players)]
        return replace(self, picks=[pick], secrets=secrets)

    def setup(self, names: list[str], colours: list[str], variants: list[str]) -> dict[str, Any]:
        sets = [v[len(SET_VARIANT):] for v in variants if v.startswith(SET_VARIANT)]
        return {"colours": colours, "sets": sets or ["base"],
                "variants": [v for v in variants if not v.startswith(SET_VARIANT)]}


NEW_GAME = HastyNewGame(
    players=5, min_players=hasty.MIN_PLAYERS, max_players=hasty.MAX_PLAYERS,
    names=["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"], palette=dict(PLAYER_COLOURS),
    players_note="Players in seating order, clockwise (the first plays first). Card sets: the base set unless "
                 "others are ticked below (tick it too to play it with them).",
    variants={"set_base": "Base set", "set_advanced": "Advanced set", "set_expert": "Expert set",
              "traitor": "The Traitor", "big_hands": "Big Hands", "powers": "Suspect powers"},
    one_of=("set_base", "set_advanced", "set_expert"),
    seed_note="Seed: the app deals the row and every secret suspect from it (each sees theirs at the table)",
    picks=[PickInOrder("row", hasty.SUSPECTS, 7, "suspects", "Lay the suspects in a row, then tap them left to right",
                       seeded="Deal from a seed")])



# --- the table ------------------------------------------------------------------------------------

def _width(text: str, size: float, bold: bool = False) -> float:
    """The width of `text` (markup left out) on one line at `size`."""
    return float(CoreLabel(font_size=size, bold=bold).get_extents(MARKUP.sub("", text))[0])


def _lines(text: str, size: float, room: float, bold: bool = False) -> int:
    """How many lines `text` takes wrapped in `room` (words never split: each fits)."""
    lines, line = 1, ""
    for word in MARKUP.sub("", text).split():
        wider = f"{line} {word}" if line else word
        if line and _width(wider, size, bold) > room:
            lines, line = lines + 1, word
        else:
            line = wider
    return lines


class RowTile(Tile):
    """A tile whose text shrinks to fit its widest word, but never under MIN_TEXT sp."""

    def fit_words(self, *_args: Any) -> None:
        super().fit_words()
        floor = App.get_running_app().fs * sp(MIN_TEXT)
        self.font_size = max(float(self.font_size), min(floor, self.base_font))  # type: ignore[has-type]


class Table(GameTable):
    """Portrait: the state scrolls above a fixed pad of each player's "hold to see", the row and the line of what
    to do. Landscape: the row leads the state on the left, the holds and that line fill the pad on the right (a card
    type to tap: the cards lead the state, the row under them). The holds never scroll and never leave: however
    long what happened grows, in a review too, each stays whole on the window."""

    pad_class = HastyPad
    pad: HastyPad
    secrets_in_pad = True  # the frame puts the holds atop the fixed pad
    fold_actions = True  # a review has no action button: its bar's room goes to the row

    def scoreline(self, s: dict[str, Any]) -> str:
        names = [self._set_name(x) for x in s["sets"]]
        sets = names[0] if len(names) == 1 else " + ".join(n.removesuffix(" set") for n in names) + " sets"
        if s["phase"] == "over":
            return f"Game over · {sets}"
        out = " · safe round" if s["first_round"] else f" · {len(s['out'])} out" if s["out"] else ""
        return f"Turn {s['turn']} · {s['active']} · {sets}{out}"

    def widgets(self, s: dict[str, Any]) -> list[Any]:
        pad = self.pad
        self.message = pad.message
        self.secrets_cols = self._hold_cols(s["players"])
        self._to_top(s)
        if s["phase"] == "over":  # what the last event did sits in the fixed pad, in full
            return [self._over(s), self._row(s)]
        if pad.card is not None:  # in landscape a suspect is chosen on the row, the card's text beside it in the pad
            return [self._row(s)] if self._choice_beside_row() else [*self._choice(s), *self._row_in_state(s)]
        if self._picking(s):  # the card types take the pad (one set, portrait) or lead the state: the row below
            if self._review_beside(s):  # landscape: the row, what the last card did, then the prompt
                return [self._row(s, cols=4, busts=False), self._pad_line(s, self._state_width()), self._review(s)]
            grids = [] if self._cards_in_pad() else self._card_grids(self._prefix(s))
            if self.screen.landscape:  # the cards first, in view
                return [*grids, *([self._review(s)] if s["phase"] == "reveal" else []), self._row(s)]
            if s["phase"] == "reveal":  # the row the table looks at first, whole above the pad; then the prompt
                return [*grids, self._row(s), self._review(s)]
            return [*grids, self._row(s)]
        return [*self._row_in_state(s), self._last(s), *self._marks(s), self._deck(s)]

    def _choice_beside_row(self) -> bool:
        """Whether a card waits for a suspect in landscape: its text in the pad's column, the row on the left."""
        options = self.pad.choices(self.pad.card) if self.pad.card is not None else None
        return self.screen.landscape and options is not None and options[0] == "target"

    def _row_in_state(self, s: dict[str, Any]) -> list[Any]:
        """In landscape the row leads the state (the pad's column holds the holds and the line); else nothing."""
        return [self._row(s)] if self.screen.landscape else []

    def _hold_cols(self, players: list[str]) -> int:
        """The holds a row in the pad: two for up to four players, else four (three if a name would not fit)."""
        if len(players) <= 4:
            return 2
        width = self.screen.width - dp(12)
        if self.screen.landscape:  # table.kv: the pad takes 0.56 of the width
            width = (width - dp(6)) * 0.56
        room = (width - dp(3) * 3) / 4 - dp(16)  # widgets.kv: a hold's text keeps clear of its colour bar
        widest = max(_width(f"{p}:", self.app.fs * sp(15)) for p in players)  # "Ann: hold to see" at CButton's size
        return 4 if widest <= room else 3

    def _to_top(self, s: dict[str, Any]) -> None:
        """A new step (an event, a pile tapped, a card waiting) shows the state from its top: its prompt in view."""
        step = (s["events"], s["phase"], self.pad.picked, self.pad.card)
        if step != getattr(self, "_step", None):
            self._step = step
            for scroll in ("scroll", "pad_scroll"):
                self.screen.ids[scroll].scroll_y = 1

    @staticmethod
    def _marks(s: dict[str, Any]) -> list[Any]:
        """What lasts on the table beyond one event: a review called off (Court Recess) until the loupe uses it."""
        out = []
        n = s.get("called_off", 0)
        if n:
            reviews = "review is" if n == 1 else f"{n} reviews are"
            out.append(label(f"[b]No review next:[/b] the next {reviews} called off (the loupe passes the last "
                             "suspect and returns to the first)"))
        piles = [f"{r['name']}: {', '.join(r['face_up'])}" for r in s["row"] if r["alive"] and r["face_up"]]
        if piles:  # a tile counts its face-up cards: here they are by name
            out.append(label("[b]Face up:[/b] " + " · ".join(piles)))
        return out

    def pad_widgets(self, s: dict[str, Any]) -> list[Any]:
        if s["phase"] == "over":
            return [self._last(s)] if s["history"] else []
        if self._choice_beside_row():
            return self._choice(s)
        if self._review_beside(s):  # landscape: the card types under the holds, the row and "Last:" on the left
            return self._card_grids("reveal", beside=True)
        line = [self._pad_line(s)]
        if self._picking(s):  # landscape: the card types lead the state, the holds and this line fill the pad
            return [*self._card_grids(self._prefix(s)), *line] if self._cards_in_pad() else line
        players = [self._players(s)] if self.pad.card is None else []
        return [*line, *players] if self.screen.landscape else [*players, self._row(s), *line]

    def _pad_width(self) -> float:
        """The width of the fixed pad: the window's, or in landscape its right-hand column (table.kv: 0.56)."""
        width = self.screen.width - dp(12)
        return (width - dp(6)) * 0.56 if self.screen.landscape else width

    def _state_width(self) -> float:
        """The width of the state's column in landscape (table.kv: 0.44 of the window's less the gap)."""
        return (self.screen.width - dp(12) - dp(6)) * 0.44

    def _review_beside(self, s: dict[str, Any]) -> bool:
        """Landscape, a review: whether the row (four a row, no busts) and "Last:" fit the left column and one set's
        card types (six a row) the pad beside the holds, so that all of it shows at 640x360 without scrolling."""
        one_set = len(self.session.state.sets) == 1
        if not (self.screen.landscape and s["phase"] == "reveal" and self._picking(s) and one_set):
            return False
        size = self.app.fs * sp(MIN_TEXT)
        room = self._tile_room(4)
        words = all(_width(w, size, bold=True) <= room for r in s["row"] for w in r["name"].split())
        return words and self._names_fit(self.pad.cards(), 6, size)

    def _pad_line(self, s: dict[str, Any], width: float | None = None) -> Any:
        """What to do, or in a review what the last card did: as many lines as its text takes (at least one, a
        review's at least two and at most five), so that no line of it is cut at its edge; in landscape's short
        pad column, under the holds, one line (a review's two or three). `width`: the column it is in when not the
        pad's (a landscape review's state column)."""
        review = s["phase"] == "reveal" and bool(s["history"])  # what the last card did, in reach while entering
        text = f"[b]Last:[/b] {s['history'][-1]}" if review else self.pad.prompt()
        line = self._line(text)
        lines = _lines(text, self.app.fs * sp(14), (width or self._pad_width()) - dp(8))
        landscape = self.screen.landscape  # under the holds in a short column: fewer lines, the rest scrolls
        if review:
            line.lines = max(2, min(3 if landscape else 5, lines))
        else:  # landscape: above the players one line; with no players under it (a card to tap) up to three
            line.lines = (min(3, lines) if self._picking(s) else 1) if landscape else min(2, lines)
        if review:
            line.label.testid = "last_text"  # for the driver: whether all of it is in view
        return line

    def _picking(self, s: dict[str, Any]) -> bool:
        """Whether a card type is tapped next: the card revealed, or the one played face up at the loupe."""
        return self.pad.card is None and (s["phase"] == "reveal" or s["phase"] == "play" and self.pad.at_loupe())

    @staticmethod
    def _prefix(s: dict[str, Any]) -> str:
        return "reveal" if s["phase"] == "reveal" else "card"

    def _cards_in_pad(self) -> bool:
        """One set's dozen card types fit the fixed pad; several sets' scroll in the state above it. In landscape
        the pad's short column has the holds (every player's, always in reach) and the line: the cards lead the
        state's column, shown from its top at each step."""
        return not self.screen.landscape and len(self.pad.cards()) <= 15

    def actions(self, s: dict[str, Any]) -> list[Any]:
        pad, screen = self.pad, self.screen
        if pad.card is not None:
            return [button("Cancel", "choice_cancel", lambda: screen.then(setattr, pad, "card", None), flat=True)]
        if s["phase"] != "play":
            return []
        down = button("Face down", "face_down", lambda: screen.do(pad.face_down()),
                      disabled=pad.picked is None or pad.at_loupe())
        return [down, button("Clear", "clear", lambda: screen.then(pad.clear), flat=True),
                button("Can't play", "stuck", self._stuck_page, flat=True)]

    def secrets(self, s: dict[str, Any]) -> dict[str, str]:
        # Every hold, at every moment of play (a review and a card at the loupe too): a hold shows its own player's
        # suspect only while held, as a player may look at their own card at any time, so it tells the table nothing;
        # hiding them (as once while a card type was tapped, for room) only kept a player from their own card.
        if s["phase"] == "over":
            return {}  # every secret is public: the end lists them
        out = {}
        for i, p in enumerate(s["players"]):
            if p in s["out"]:
                continue
            mine = self.session.summary(i)
            if mine["secret"] == "the Traitor":
                text = ("You are [b]the Traitor[/b]: you win if every other player is out while two or more "
                        "suspects remain, and lose when only one is left.")
            else:
                text = f"Your secret suspect: [b]{mine['secret']}[/b]"
            known = {q: n for q, n in mine["known_secrets"].items() if q != p and q not in s["out"]}
            if known:
                text += "\nYou know: " + ", ".join(f"{q}'s is {n}" for q, n in known.items())
            out[p] = text
        return out

    def secret_pictures(self, s: dict[str, Any]) -> dict[str, list[str]]:
        """Each player's secret suspect's bust (the Traitor has none), in the hold's view only."""
        out = {}
        for p in self.secrets(s):
            found = picture_for("hasty", self.session.state.secrets[s["players"].index(p)])
            out[p] = [found] if found else []
        return out

    def has_draft(self) -> bool:
        return self.pad.picked is not None or self.pad.card is not None

    # --- parts -------------------------------------------------------------------------------------

    def _set_name(self, set_id: str) -> str:
        found = self.session.db.sets.get(set_id)
        return found.name if found else set_id

    def _cols(self, n: int) -> int:
        """Tiles a row: three or four on a phone; three in landscape's state column."""
        return 3 if n <= 6 or self.screen.landscape else 4

    def _tile_room(self, cols: int) -> float:
        """The width a tile's words get: the window's (in landscape the state's column) shared by `cols` tiles."""
        width = self.screen.width - dp(12)
        if self.screen.landscape:  # table.kv: the state takes 0.44 of the width
            width = (width - dp(6)) * 0.44
        return (width - dp(3) * (cols - 1)) / cols - dp(8)

    def _row(self, s: dict[str, Any], cols: int | None = None, busts: bool = True) -> GridLayout:
        """Every suspect: the living left to right (pile size, the loupe, the tapped one), then the murdered.
        A tile is its name and one line under it (never smaller than MIN_TEXT): the pile's size, whose suspect
        it is once known, how many of its cards lie face up (named in the "Face up:" line) and LOUPE (also the
        bar across its top), the last two left out where the line would not fit."""
        app, pad = self.app, self.pad
        size = app.fs * sp(MIN_TEXT)
        cols = cols or self._cols(len(s["row"]))
        rows = -(-len(s["row"]) // cols)
        room = self._tile_room(cols)
        review = (s["review"] or {}).get("suspect")
        tied = set(s["tied"])
        tiles, lines = [], 2
        for r in s["row"]:
            loupe = r["id"] == s["loupe"] and s["phase"] != "over"
            name = f"[b]{r['name']}[/b]" if r["alive"] else f"[s]{r['name']}[/s]"
            foot = self._foot(r, loupe, s["phase"] == "over", cols, size, room, busts)
            lines = max(lines, _lines(r["name"], size, room, bold=True)
                        + sum(_lines(part, size, room) for part in foot.split("\n")))
            lit = r["id"] == pad.picked or r["name"] == review or r["name"] in tied
            tile = RowTile(text=f"{name}\n{foot}", testid=f"suspect_{r['id']}", flat=not lit, markup=True)
            tile.base_font = tile.font_size = size  # after the kv rule, which sets its own
            tile.valign = "middle"
            if not r["alive"]:
                tile.color = self._rgba("muted")
            tile.bind(on_release=lambda *_, sid=r["id"]: self._tap(self.pad.tap_suspect, sid))
            bust = picture_for("hasty", r["id"]) if busts else None  # as on the card, beside the short last line
            top_picture(tile, bust, app.colors["muted" if not r["alive"] else "text"], size=BUST, at="foot")
            if loupe:  # the loupe: a thick bar in the accent colour across the tile's top
                colour_bar(tile, app.colors["accent"], side="top", thick=6)
            tiles.append(tile)
        cell = max(dp(48), lines * line_height(size) + dp(12))  # the kv rule leaves the text 8 dp less than the tile
        grid = GridLayout(cols=cols, size_hint_y=None, height=cell * rows + dp(3) * (rows - 1), spacing=dp(3))
        for tile in tiles:
            tile.height = cell
            grid.add_widget(tile)
        return grid

    @staticmethod
    def _foot(r: dict[str, Any], loupe: bool, over: bool, cols: int, size: float, room: float, bust: bool = True) -> str:
        """The line under a suspect's name: what fits of its pile size, owner, face-up count and the loupe. It is
        centred beside the bust in the tile's bottom left corner, so it fits the tile less a bust's width on each
        side; where the pile size and owner alone do not, they take a line each (the owner's, short, the last)."""
        clear = room + dp(8) - (2 * dp(BUST + 3) if bust else 0)  # _tile_room's words' width is the tile's less 8 dp
        if not r["alive"]:
            return "murdered" if _width("murdered", size) <= clear else "dead"
        owner = [f"{r['owner']}'s"] if r["owner"] and not over else []
        up = [f"{len(r['face_up'])} up"] if r["face_up"] else []
        mark = ["[b]LOUPE[/b]"] if loupe else []
        count = f"{r['pile']} card{'' if r['pile'] == 1 else 's'}"
        if not (owner or up or mark) and cols <= 4 and _width(count, size) <= clear:
            return count
        parts = [*mark, str(r["pile"]), *owner, *up]
        for spare in (*mark, *up):  # the bar shows the loupe; the "Face up:" line names the cards
            if _width(" · ".join(parts), size, bold=True) > clear:
                parts.remove(spare)
        return (" · " if _width(" · ".join(parts), size, bold=True) <= clear else "\n").join(parts)

    def _rgba(self, key: str) -> Any:
        from casebook.companion.theme import rgba

        return rgba(self.app.colors[key])

    def _last(self, s: dict[str, Any]) -> Any:
        """What the last event did, in the engine's words (a reveal: what the card did)."""
        if not s["history"]:
            first = "The first round is safe: no review until the loupe passes the last suspect twice." \
                if s["first_round"] else "No card played yet."
            return label(first, muted=True)
        last = s["history"][-1]
        if s["phase"] == "over":  # the winner and why are told above: the rest of what happened, in full
            last = "; ".join(part for part in last.split("; ") if not part.startswith("Game over:"))
        shown = label(f"[b]Last:[/b] {last}")
        shown.testid = "last"  # for the driver: whether it is in view
        return shown

    def _players(self, s: dict[str, Any]) -> GridLayout:
        """Every player in the fixed pad, in their colour: the cards in their hand, or their name struck through
        once out; the one to play in bold, underlined and in the accent colour. Portrait: as many a row as the
        holds. Landscape, whose pad column is short: all in one row at the smallest text when their names fit
        (else as many a row as the holds). Never scrolled: no row is cut."""
        landscape = self.screen.landscape
        size = self.app.fs * sp(MIN_TEXT if landscape else 14)
        counts = {p: None if p in s["out"] else s["hands"][p] for p in s["players"]}

        one_row = landscape  # one row: no gap between cells, a thinner bar, less padding
        gap, bar, left, right = (0, 5, dp(7), 0) if one_row else (dp(3), 8, dp(12), dp(12))

        def fits(cols: int, form: str) -> bool:
            room = (self._pad_width() - gap * (cols - 1)) / cols - left - right - dp(2)  # dp(2): Kivy's rounding
            return all(_width(p if n is None else form.format(p=p, n=n), size, True) <= room
                       for p, n in counts.items())

        layouts = [(self.secrets_cols, f) for f in ("{p} · {n} in hand", "{p} · {n} cards", "{p} · {n}")]
        if one_row and fits(len(counts), "{p} {n}"):
            layouts = [(len(counts), "{p} {n}")]
        else:
            gap, bar, left, right = dp(3), 8, dp(12), dp(12)
        cols, form = next((x for x in layouts if fits(*x)), layouts[-1])
        grid = GridLayout(cols=cols, size_hint_y=None, spacing=gap)
        grid.bind(minimum_height=grid.setter("height"))
        colours = self.session.log.setup.get("colours") or []
        for i, (p, n) in enumerate(counts.items()):
            text = f"[s]{p}[/s]" if n is None else form.format(p=p, n=n)
            if p == s["active"]:
                text = f"[b][u]{text}[/u][/b]"
            cell = label(text, padding=(left, 0, right, 0), font_size=size)
            cell.testid = f"player_{i}"  # for the driver: whether it is in view
            if p == s["active"]:
                cell.color = self._rgba("accent")
            hexcol = PLAYER_COLOURS.get(colours[i]) if i < len(colours) else None
            if hexcol:
                colour_bar(cell, readable(hexcol, self.app.colors["bg"]), side="left", thick=bar)
            grid.add_widget(cell)
        return grid

    @staticmethod
    def _deck(s: dict[str, Any]) -> Any:
        return label(f"Deck {s['deck']} · discards {s['discards']} · turns go {s['direction']}", muted=True)

    def _review(self, s: dict[str, Any]) -> Any:
        review = s["review"]
        seen = ", ".join(review["revealed"]) or "none yet"
        shown = label(f"[b]Review of {review['suspect']}[/b] ({review['left']} left): {s['active']} turns the next "
                      f"card over, top down, and taps which it is. Revealed: {seen}.")
        shown.testid = "review_prompt"
        return shown

    def _card_grids(self, prefix: str, beside: bool = False) -> list[Any]:
        """The card types of the sets in play, three a row (a revealed one named only: six or four a row where the names
        fit), grouped by set when several are in play."""
        pad = self.pad
        sets = self.session.state.sets
        landscape = self.screen.landscape
        cols, size, height = 3, self.app.fs * sp(MIN_TEXT if landscape else 13), dp(48) if landscape else dp(52)
        revealed = prefix == "reveal"  # a card revealed is named, not played: where it may be played is no matter
        small = self.app.fs * sp(MIN_TEXT)
        pad_cols = revealed and (not landscape or beside)
        wide = next((n for n in (6, 4) if pad_cols and self._names_fit(pad.cards(), n, small)), 0)
        if wide:  # two rows (or three) less than the played cards take: the suspects' row fits above them
            cols, size, height = wide, small, dp(48)
        out: list[Any] = []
        for set_id in sets:
            if len(sets) > 1:
                out.append(label(self._set_name(set_id), muted=True))
            grid = GridLayout(cols=cols, size_hint_y=None, spacing=dp(3))
            grid.bind(minimum_height=grid.setter("height"))
            for card in pad.cards():
                if card.sets[0] != set_id and len(sets) > 1:
                    continue
                note = "" if revealed else RESTRICTION_SHORT[card.restriction]
                text = card.name + (f"\n[i]{note}[/i]" if note else "")
                tile = RowTile(text=text, testid=f"{prefix}_{card.id}", flat=True, markup=True,
                               height=height if landscape or cols > 3 else height * self.app.fs, font_size=size)
                tile.valign = "middle"
                tile.bind(on_release=lambda *_, c=card.id: self._tap(self.pad.tap_card, c))
                grid.add_widget(tile)
            out.append(grid)
        return out

    def _names_fit(self, cards: list[Any], cols: int, size: float) -> bool:
        """Whether every card's name fits `cols` tiles a row of the pad in two lines at `size`, no word split."""
        room = (self._pad_width() - dp(3) * (cols - 1)) / cols - dp(4)  # widgets.kv: a tile's text is 4 dp narrower
        return all(_width(w, size) <= room for c in cards for w in c.name.split()) and \
            all(_lines(c.name, size, room) * line_height(size) + dp(8) <= dp(48) for c in cards)

    def _choice(self, s: dict[str, Any]) -> list[Any]:
        pad = self.pad
        card = hasty.actions(self.session.db)[str(pad.card)]
        options = pad.choices(card.id)
        assert options is not None
        key, values = options
        row = "on the left" if self.screen.landscape else "below"
        whom = f"taps the suspect in the row {row}" if key == "target" else "taps the player"
        out: list[Any] = [label(f"[b]{card.name}[/b]: {hasty.effect_text(card.effect, card.name)}\n"
                                                f"{s['active']} chooses: {whom}.")]
        if key == "player":  # a suspect is chosen on the row itself
            grid = GridLayout(cols=2, size_hint_y=None, spacing=dp(3))
            grid.bind(minimum_height=grid.setter("height"))
            for v in values:
                grid.add_widget(button(v, f"choose_{v}", lambda v=v: self.screen.do(pad.choose(v)), flat=True))
            out.append(grid)
        return out

    def _stuck_page(self) -> None:
        """No card in hand can be played anywhere: show the hand, discard one (its type tapped here)."""
        pad = self.pad
        body = self.screen.start_page()
        body.add_widget(label(f"[b]{pad.active()} can play no card[/b] anywhere (each is barred by its restriction): "
                              "show your hand to the table and tap the card you discard."))
        for card in pad.cards():
            body.add_widget(button(card.name, f"stuck_{card.id}", lambda c=card.id: self.screen.do(pad.stuck(c)),
                                   flat=True))

    def _over(self, s: dict[str, Any]) -> BoxLayout:
        """The winner and why, then each player's secret suspect (all public now) and who was out."""
        res = s["result"]
        box = column()
        winners = res.get("winners") or []
        head = (f"{winners[0]} wins" if len(winners) == 1 else
                f"{' and '.join(winners)} share the win" if winners else "Nobody wins")
        box.add_widget(label(f"[b][size={int(self.app.fs * sp(19))}]{head}[/size][/b]"))
        box.add_widget(label(res["why"]))
        lines = []
        for p in s["players"]:
            who = s["known_secrets"].get(p, "?")
            fate = "out" if p in s["out"] else "in"
            lines.append(f"{p}: {who} ({fate})")
        box.add_widget(label("\n".join(lines)))
        return box
