"""The P.I. table: the city as a map of big district buttons, the evidence display, a solve picked
by taps, the case holder's answer told large; turns, boxes, penalties and investigators left per
player. Each case shows only behind its holder's "hold to see", and is entered by its holder alone."""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from casebook.companion.pictures import picture_for
from casebook.companion.tables.base import GameTable, NewGameSpec
from casebook.companion.tables.pi.pad import MODES, SLOTS, PiPad
from casebook.companion.theme import rgba
from casebook.companion.widgets import (
    MARKUP,
    FitLabel,
    Tile,
    _panel,
    button,
    colour_bar,
    confirm,
    hold_lines,
    label,
    picture,
    top_picture,
    widest_word,
)
from casebook.rules.games import pi

# the pieces' own colours (cards/pi/game.yaml suits), so each player picks the colour of their pieces
PALETTE = {"red": "#D55E00", "blue": "#0072B2", "green": "#009E73", "yellow": "#F0E442", "purple": "#CC79A7"}

NEW_GAME = NewGameSpec(
    players=3, min_players=2, max_players=5, names=["Ann", "Ben", "Cat", "Dan", "Eve"], palette=PALETTE,
    players_note="Players clockwise, each on the left of the one before (the first starts mini-game 1); "
                 "each takes the pieces of their colour",
    seed_note="Seed: at each mini-game the app may deal the tiles, cases and display from it (or you enter "
              "the table's own deal)")

CASE_SECONDS = 60  # a case entry left open closes itself after this long
MODE_LABELS = {"investigate": "Investigate", "evidence": "Evidence", "solve": "Solve"}
KIND_WORDS = {"suspect": "suspect", "crime": "crime", "location": "district"}


CANAL = "#0072B2"  # the water between districts that do not touch, and the harbour
MIN_FONT = 12  # sp: no text on the table smaller


def short(name: str) -> str:
    """A district's name for a map cell: without a leading 'The'."""
    return name[4:] if name.startswith("The ") else name


class DistrictCell(Tile):
    """A district on the map (or a card): its font shrinks to fit its widest word, never under MIN_FONT sp."""

    def fit_words(self, *_args: Any) -> None:
        room = self.width - dp(8)
        if room <= 0 or not self.text:
            return
        size = self.base_font
        while size > sp(MIN_FONT) and widest_word(self.text, size, self.bold, self.font_name) > room:
            size -= 1
        self.font_size = max(size, sp(MIN_FONT))


class Link(Widget):
    """What lies between two neighbouring cells of the map: a street (they touch) or a canal (they do not)."""

    testid = StringProperty("")

    def __init__(self, colour: str, **kw: Any):
        super().__init__(**kw)
        with self.canvas:
            Color(*rgba(colour))
            self._rect = Rectangle()
        self.bind(pos=self._draw, size=self._draw)

    def _draw(self, *_args: Any) -> None:
        self._rect.pos, self._rect.size = self.pos, self.size


class CityMap(Widget):
    """The city as it lies on the board, a cell a district: a street crosses the gap between districts that touch,
    a canal (blue) runs between neighbouring cells that do not; the harbour where no district is."""

    def __init__(self, city: pi.City, board: dict[tuple[int, int], str], cell: Any, row_height: float,
                 street: str, gap: float = 6, **kw: Any):
        self.cols = 1 + max(x for x, _y in board)
        self.rows = 1 + max(y for _x, y in board)
        self.gap, self.row_height = float(dp(gap)), float(row_height)
        super().__init__(size_hint_y=None, height=self.rows * self.row_height + (self.rows - 1) * self.gap, **kw)
        self.cells: dict[tuple[int, int], Widget] = {}
        self.links: list[tuple[tuple[int, int], tuple[int, int], Link, bool]] = []
        for y in range(self.rows):
            for x in range(self.cols):
                self.cells[(x, y)] = cell(board.get((x, y)))
                self.add_widget(self.cells[(x, y)])
        for (x, y), d in board.items():
            for nx, ny in ((x + 1, y), (x, y + 1)):
                other = board.get((nx, ny))
                if other is None:
                    continue
                touch = other in city.adjacent[d]
                link = Link(street if touch else CANAL, testid=f"{'street' if touch else 'canal'}_{d}_{other}")
                self.links.append(((x, y), (nx, ny), link, touch))
                self.add_widget(link)
        self.bind(pos=self._place, size=self._place)

    def grow_to_words(self) -> None:
        """Rows as tall as the tallest cell's words need, never less than made with (cells of plain labels whose
        words wrap in their width: a deal of long names, three names of two lines each, takes six lines)."""
        least = self.row_height

        def fit(*_args: Any) -> None:
            need = max([least] + [w.texture_size[1] + dp(4) for w in self.cells.values() if getattr(w, "text", "")])
            if abs(need - self.row_height) > 0.5:
                self.row_height = need
                self.height = self.rows * need + (self.rows - 1) * self.gap
                self._place()

        for w in self.cells.values():
            w.bind(texture_size=fit)

    def _place(self, *_args: Any) -> None:
        g, rh = self.gap, self.row_height
        cw = (self.width - g * (self.cols - 1)) / self.cols
        for (x, y), w in self.cells.items():
            w.size_hint = (None, None)
            w.size = (cw, rh)
            w.pos = (self.x + x * (cw + g), self.top - (y + 1) * rh - y * g)
        for (x, y), (nx, _ny), link, touch in self.links:
            a = self.cells[(x, y)]
            if nx > x:  # side by side: the gap runs up and down
                along, across = (rh * 0.3, g) if touch else (rh, g / 2)
                link.size = (across, along)
                link.pos = (a.right + (g - across) / 2, a.y + (rh - along) / 2)
            else:  # one above the other
                along, across = (cw * 0.3, g) if touch else (cw, g / 2)
                link.size = (along, across)
                link.pos = (a.x + (cw - along) / 2, a.y - g + (g - across) / 2)


def _width(text: str, size: float) -> float:
    """The width of `text` (markup left out, bold as a whole: the widest it draws) on one line at `size`."""
    return float(CoreLabel(font_size=size, bold=True).get_extents(MARKUP.sub("", text))[0])


class Table(GameTable):
    pad_class = PiPad
    pad: PiPad

    def __init__(self, app: Any, screen: Any, session: Any):
        super().__init__(app, screen, session)
        self._case_timer: Any = None

    @property
    def city(self) -> pi.City:
        return pi.city(self.session.db)

    # --- what the frame asks ---------------------------------------------------------------------

    def scoreline(self, s: dict[str, Any]) -> str:
        mini = f"Mini-game {s['mini_game']} of {pi.MINI_GAMES}"
        if s["phase"] == "over":  # the result itself stands in the table's first line, in bold, once
            return f"Game over · {pi.MINI_GAMES} mini-games played"
        if s["phase"] == "deal":
            return f"{mini} · deal"
        if s["phase"] == "cases":
            return f"{mini} · cases"
        who = s["current"]
        return f"{mini} · {who}'s turn {s['turns'][who] + 1}"

    def widgets(self, s: dict[str, Any]) -> list[Any]:
        pad = self.pad
        self.message = pad.message
        self.secrets_after = None
        if pad.case_by is not None:
            return self._case_entry()
        if s["phase"] == "deal" and pad.entering_deal:
            return self._deal_entry()
        if s["phase"] == "play" and pad.drawing:
            return [label(f"[b]The card {s['current']} drew[/b] to refill the display (the deck's cards):"),
                    *self._element_grids(pad.deck_cards(), lambda e: self.screen.then(pad.tap_card, e),
                                         "draw", lambda e: False)]
        out: list[Any] = []
        if self.screen.landscape and s["phase"] == "play":  # the pad's right column is the map's, whole
            out += self._lead(s)
        lead = len(out)
        if s["phase"] == "over":
            out.append(label(f"[b]{s['result']['why']}[/b]"))
        elif s["phase"] == "deal":
            out.append(label(self._deal_note(s)))
        elif s["phase"] == "cases":
            waiting = [p for i, p in enumerate(s["players"]) if self.session.state.cases[i] is None]
            out.append(label("Each player in turn, alone (the others look away), taps their button below and "
                             "enters the three case cards they hold: the suspect, the crime and the district. "
                             f"Still to enter: {', '.join(waiting)}."))
        # in play the players' rows lead the state, each one line (what each found follows them): all five in view
        # on a phone with whose turn it is; before the play each player's button comes first, then the players
        self.secrets_after = len(out)
        if s["phase"] == "play":
            out += [self._players(s), *self._found_lines(s), self._boxes(s), self._display_line(s), self._tiles(s)]
        else:
            out.append(self._players(s))
        out += self._finished(s)
        # in play every hold is in reach without scrolling, five players too: atop the fixed pad, one row (portrait),
        # or under whose turn it is at the head of the state (landscape: the pad's column is the map's)
        self.secrets_in_pad = s["phase"] == "play" and not self.screen.landscape
        if s["phase"] == "play":
            self.secrets_cols = self._hold_cols(s["players"])
            if self.screen.landscape:
                self.secrets_after = lead
        return out

    def _hold_cols(self, players: list[str]) -> int:
        """The holds a row. Portrait: all in one if each name fits its share of the width (else fewer, never under
        two). Landscape, in the state's narrow column: as many as keep each "Ann: hold to see" to two lines."""
        width = self.screen.width - dp(12)
        fs = self.app.fs * sp(15)  # CButton's
        if self.screen.landscape:  # table.kv: the state takes 0.44 of the width
            width = (width - dp(6)) * 0.44
            for cols in range(len(players), 2, -1):
                if all(hold_lines(p, (width - dp(3) * (cols - 1)) / cols, fs) <= 2 for p in players):
                    return cols
            return 2
        widest = max(CoreLabel(font_size=fs).get_extents(f"{p}:")[0] for p in players)
        for cols in range(len(players), 2, -1):
            if widest <= (width - dp(3) * (cols - 1)) / cols - dp(16):  # widgets.kv: clear of the colour bar
                return cols
        return 2

    def pad_widgets(self, s: dict[str, Any]) -> list[Any]:
        pad = self.pad
        if pad.case_by is not None or s["phase"] != "play" or pad.drawing:
            head = self._head(s)
            return [head] if head is not None else []
        if pad.mode == "evidence":
            body = self._display(s)
        elif pad.mode == "solve" and pad.solve_step() != "location":
            body = self._solve_grid(pad.solve_step())
        else:
            body = self._map(s)
        if self.screen.landscape:  # whose turn, the answer and the modes lead the state, left
            return [body]
        return [*self._lead(s), body]

    def _lead(self, s: dict[str, Any]) -> list[Any]:
        """Whose turn it is, the largest text on the table (portrait: the player's row at the head of the state and
        the score line say it, the pad's room going to the players' rows); the answer or what Confirm will record;
        the modes."""
        pad = self.pad
        modes = GridLayout(cols=3, size_hint_y=None, height=dp(48), spacing=dp(3))
        for m in MODES:
            modes.add_widget(button(MODE_LABELS[m], f"mode_{m}", lambda m=m: self.screen.then(pad.tap_mode, m),
                                    flat=pad.mode != m, height=dp(48)))
        turn = [self._turn(s)] if self.screen.landscape else []
        return [*turn, self._head(s) or self._headline(""), modes]

    def _turn(self, s: dict[str, Any]) -> Label:
        who = s["current"]
        fs = self.app.fs * sp(24)
        banner = FitLabel(text=f"[b]{who}'s turn[/b]", size_hint_y=None, height=dp(40), base_font=fs, font_size=fs,
                          min_font=sp(MIN_FONT), markup=True, color=rgba(self.app.colors["text"]), halign="center",
                          valign="middle")
        banner.testid = "turn"
        colour_bar(banner, PALETTE.get(s["colours"][who], "#888888"), side="left", thick=12)
        return banner

    def _head(self, s: dict[str, Any]) -> Label | None:
        """The answer told, or what Confirm will record."""
        pad = self.pad
        if pad.case_by is not None:
            return None
        told = pad.told()
        if s["phase"] != "play" or pad.drawing:
            return self._headline(told, bold=True) if told else None
        chosen = pad.target or pad.picks
        return self._headline(told, bold=True) if told and not chosen else self._headline(pad.preview())

    def _cell(self) -> float:
        """The height of a map or card button: a little less in landscape, where the pad is short (in portrait a
        district's picture and two lines of its name need 52 dp)."""
        return float(dp(48) if self.screen.landscape else dp(52))

    def actions(self, s: dict[str, Any]) -> list[Any]:
        pad, screen = self.pad, self.screen
        if pad.case_by is not None:
            who = s["players"][pad.case_by]
            return [button(f"Enter {who}'s case", "case_confirm", self._confirm_case),
                    button("Cancel", "case_cancel", self._close_case, flat=True)]
        if s["phase"] == "deal":
            if pad.entering_deal:
                return [button("Deal", "deal_confirm", lambda: screen.do(pad.confirm_deal())),
                        button("Take back", "deal_back", lambda: screen.then(pad.take_back_tile), flat=True),
                        button("Cancel", "deal_cancel", lambda: screen.then(pad.clear), flat=True)]
            out = [button("Enter the deal", "deal_table", lambda: screen.then(pad.start_deal))]
            if self.session.log.seed is not None:
                out.insert(0, button("Deal by app", "deal_seed", self._deal_by_app))
            return out
        if s["phase"] != "play":
            return []
        if pad.drawing:
            return [button("Clear", "clear", lambda: screen.then(pad.clear), flat=True)]
        return [button("Confirm", "confirm", self._confirm),
                button("Clear", "clear", lambda: screen.then(pad.clear), flat=True),
                button("More...", "more", self._more, flat=True)]

    def secrets(self, s: dict[str, Any]) -> dict[str, str]:
        if s["phase"] not in ("cases", "play") or self.pad.case_by is not None or self.pad.drawing:
            return {}  # a page of its own is open: nothing above its choices
        out = {}
        for i, p in enumerate(s["players"]):
            mine = self.session.summary(i)
            case = mine.get("case")
            if case:
                out[p] = (f"You hold {mine['case_for']}'s case:\nSuspect: [b]{case['suspect']}[/b]\n"
                          f"Crime: [b]{case['crime']}[/b]\nDistrict: [b]{case['location']}[/b]")
        return out

    def secret_pictures(self, s: dict[str, Any]) -> dict[str, list[str]]:
        """The suspect's, crime's and district's pictures of the case each player holds, beside its words."""
        out = {}
        for p in self.secrets(s):  # the case a player holds is the summary's `case` for them: cases[their place]
            paths = [picture_for("pi", e) for e in self.session.state.cases[s["players"].index(p)] or ()]
            out[p] = [x for x in paths if x]
        return out

    def secret_actions(self, s: dict[str, Any]) -> list[Any]:
        if s["phase"] != "cases" or self.pad.case_by is not None:
            return []
        return [button(f"{p}: enter my case", f"case_{i}", lambda i=i: self._open_case(i), flat=True)
                for i, p in enumerate(s["players"]) if self.session.state.cases[i] is None]

    def has_draft(self) -> bool:
        return self.pad.has_draft()

    def clear(self) -> None:
        self._stop_case_timer()
        super().clear()

    # --- the turn ---------------------------------------------------------------------------------

    def _confirm(self) -> None:
        pad = self.pad
        if pad.mode == "solve" and pad.ready():
            confirm(f"{pad.preview()}? A wrong solve costs {pi.PENALTY} points.", "Solve",
                    lambda: self.screen.do(pad.confirm()), "solve")
            return
        self.screen.do(pad.confirm())

    def _headline(self, text: str, bold: bool = False) -> Label:
        """Smaller than whose turn it is, never under MIN_FONT: in the fixed pad two lines (the font shrinks to
        fit them); in landscape, where it leads the scrolling state, as many lines as it takes."""
        fs = self.app.fs * sp(16 if bold else 15)
        if self.screen.landscape:
            return label(f"[b]{text}[/b]" if bold else text, font_size=fs, halign="center")
        return FitLabel(text=f"[b]{text}[/b]" if bold else text, size_hint_y=None, height=dp(40), base_font=fs,
                        font_size=fs, min_font=sp(MIN_FONT), markup=True, color=rgba(self.app.colors["text"]),
                        halign="center", valign="middle")

    def board(self) -> dict[tuple[int, int], str]:
        return {(int(r["cell"][0]), int(r["cell"][1])): r.id for r in self.session.db.records["districts"].cards}

    def _map(self, s: dict[str, Any]) -> CityMap:
        """The city as it lies on the board: one big button a district, streets and canals between them; in the
        harbour, where no district is, the button that shows every tile."""
        pad, c = self.pad, self.city
        mine = set(self.session.state.investigators[self.session.state.current]) if s["phase"] == "play" else set()
        chosen = pad.picks.get("location") if pad.mode == "solve" else pad.target

        def cell(d: str | None) -> Widget:
            if d is None:
                return button("All tiles", "board", self.show_board, flat=True, font_size=self.app.fs * sp(13))
            mark = " *" if d in mine else ""
            t = DistrictCell(text=short(c.name[d]) + mark, testid=f"district_{d}", flat=d != chosen,
                             height=self._cell(), font_size=self.app.fs * sp(13), bold=d == chosen)
            t.valign = "middle"
            t.bind(on_release=lambda *_: self.screen.then(pad.tap_district, d))
            top_picture(t, picture_for("pi", d), self.app.colors["text"], size=16)
            return t

        return CityMap(c, self.board(), cell, self._cell(), self.app.colors["muted"])

    def show_board(self) -> ModalView:
        """Every district's tiles on the city map, over the whole window: where to lay them out, what lies where."""
        from kivy.core.window import Window

        c, tiles = self.city, self.session.state.tiles
        view = ModalView(size_hint=(1, 1), auto_dismiss=False)  # Back: the app closes it at once
        box = BoxLayout(orientation="vertical", padding=dp(2), spacing=dp(6))  # the cells as wide as can be
        _panel(box)
        fs = self.app.fs * sp(MIN_FONT)
        wide = (Window.width - dp(20)) / 5 > dp(118)  # each name on one line
        box.add_widget(label(f"[b]The tiles, mini-game {self.session.state.mini}[/b]: suspect, then crime; a grey "
                             "bar joins districts that touch, blue is water", size_hint_y=None))

        def cell(d: str | None) -> Widget:
            if d is None:
                text, colour = "Harbour", CANAL
            else:
                suspect, crime = tiles.get(d, (None, None))
                text = (f"[b]{short(c.name[d])}[/b]\n{c.name[suspect] if suspect else 'no suspect'}\n"
                        f"{c.name[crime] if crime else 'no crime'}")
                colour = self.app.colors["bg"]
            out = Label(text=text, markup=True, font_size=fs, halign="center", valign="middle",
                        color=rgba(self.app.colors["text"] if d else "#FFFFFF"))
            out.bind(size=lambda w, *_a: setattr(w, "text_size", (w.width - dp(2), None)))
            with out.canvas.before:
                Color(*rgba(colour))
                rect = Rectangle()
            out.bind(pos=lambda w, *_a: setattr(rect, "pos", w.pos), size=lambda w, *_a: setattr(rect, "size", w.size))
            if d is not None and not wide:  # the district's, its suspect's and crime's pictures under the words
                suspect, crime = tiles.get(d, (None, None))
                shown = [picture(x, self.app.colors["text"], 14) for x in
                         (picture_for("pi", e) for e in (d, suspect, crime)) if x]
                out.padding = [0, 0, 0, dp(17)]

                def place(w: Any, *_a: Any, pics: list[Any] = shown) -> None:
                    start = w.x + (w.width - len(pics) * dp(17) + dp(3)) / 2
                    for n, img in enumerate(pics):
                        img.pos = (start + n * dp(17), w.y + dp(3))

                for img in shown:
                    out.add_widget(img)
                out.bind(pos=place, size=place)
            return out

        city_map = CityMap(c, self.board(), cell, dp(58) if wide else dp(96), self.app.colors["muted"], gap=4)
        city_map.grow_to_words()
        box.add_widget(city_map)
        box.add_widget(self._display_line(self.session.summary(None)))
        box.add_widget(Widget())
        box.add_widget(button("Back to the table", "board_back", lambda: view.dismiss(animation=False)))
        view.add_widget(box)
        view.open(animation=False)
        return view

    def _deal_by_app(self) -> None:
        out = self.pad.deal_by_seed()
        self.screen.do(out)
        if out.ok:  # where the tiles go, first of all
            self.show_board()

    def _display(self, s: dict[str, Any]) -> GridLayout:
        pad = self.pad
        grid = GridLayout(cols=3, size_hint_y=None, height=self._cell() * 3 + dp(6), spacing=dp(3))
        for e in self.session.state.display:
            grid.add_widget(self._element_button(e, f"card_{e}", lambda e=e: self.screen.then(pad.tap_card, e),
                                                 pad.target == e))
        for _ in range(pi.DISPLAY - len(self.session.state.display)):
            grid.add_widget(label("", size_hint_y=None, height=self._cell()))
        return grid

    def _solve_grid(self, kind: str) -> GridLayout:
        pad = self.pad
        elements = self.city.of_kind(kind)
        grid = GridLayout(cols=4, size_hint_y=None, height=self._cell() * 3 + dp(6), spacing=dp(3))
        for e in elements:
            grid.add_widget(self._element_button(e, f"solve_{e}",
                                                 lambda e=e: self.screen.then(pad.tap_solve, kind, e),
                                                 pad.picks.get(kind) == e, kind_line=False))  # the prompt says
        return grid

    def _element_button(self, e: str, testid: str, action: Any, chosen: bool, kind_line: bool = True) -> Tile:
        """A card's button: its name, and (among cards of every kind) its kind below it, its picture in the bottom
        left corner beside that short word (in the top one a name of two lines ran under it at 360 px); alone, its
        picture on top (the case keys too: every card is there, the page is its holder's alone, closed before the
        table looks)."""
        kind = f"\n[size={int(self.app.fs * sp(MIN_FONT))}]{KIND_WORDS[self.city.kind[e]]}[/size]" if kind_line else ""
        t = DistrictCell(text=self.city.name[e] + kind, testid=testid, flat=not chosen, height=self._cell(),
                         font_size=self.app.fs * sp(13), markup=True, bold=chosen)
        t.valign = "middle"
        t.bind(on_release=lambda *_: action())
        top_picture(t, picture_for("pi", e), self.app.colors["text"],
                    size=14 if kind_line else 16, at="foot" if kind_line else "top")
        return t

    def _element_grids(self, elements: list[str], action: Any, prefix: str, chosen: Any) -> list[Any]:
        """Elements grouped by kind (suspects, crimes, districts), three to a row."""
        out: list[Any] = []
        for kind in pi.KINDS:
            mine = [e for e in elements if self.city.kind[e] == kind]
            if not mine:
                continue
            out.append(label(f"{KIND_WORDS[kind].capitalize()}s", muted=True))
            grid = GridLayout(cols=3, size_hint_y=None, spacing=dp(3))
            grid.bind(minimum_height=grid.setter("height"))
            for e in mine:
                grid.add_widget(self._element_button(e, f"{prefix}_{e}", lambda e=e: action(e), chosen(e)))
            out.append(grid)
        return out

    def _more(self) -> None:
        """Rare actions on a page of their own: misled (after a confirmation), pass, the rules of answering."""
        body = self.screen.start_page()
        s = self.session.summary(None)
        body.add_widget(label("[b]A wrong answer found out[/b]: the misled player scores 7 this mini-game, the "
                              "player who holds their case 0, and both stop playing. Who was misled?"))
        for i, p in enumerate(s["players"]):
            if s["done"][p]:
                continue
            holder = s["players"][(i - 1) % len(s["players"])]
            body.add_widget(button(f"{p} was misled by {holder}", f"misled_{i}",
                                   lambda p=p, h=holder: self._confirm_misled(p, h), flat=True))
        who = s["current"]
        if s["investigators_left"][who] == 0 and not s["display"]:
            body.add_widget(button(f"{who} passes (no investigators, no display)", "pass",
                                   lambda: self.screen.do(self.pad.pass_turn())))
        body.add_widget(button("Rules: how the case holder answers", "more_rules",
                               lambda: self.app.open_rules("discs cubes answer"), flat=True))
        # back to the table: the page's Cancel in the fixed action bar, where every page keeps it (and Back)

    def _confirm_misled(self, player: str, holder: str) -> None:
        confirm(f"{player} was misled by {holder}: {player} scores {pi.MISLED_POINTS} and {holder} 0 for this "
                "mini-game, and both stop playing. Record it?", "Misled",
                lambda: self.screen.do(self.pad.misled(player)), "misled")

    # --- the deal and the cases -------------------------------------------------------------------

    def _deal_note(self, s: dict[str, Any]) -> str:
        seed = self.session.log.seed
        by_app = (f"Deal by app: the app deals them (seed {seed}) and lists where each goes.\n" if seed is not None
                  else "")
        return (f"[b]Mini-game {s['mini_game']}[/b]: who deals the tiles, the cases and the display?\n"
                f"{by_app}Enter the deal: you dealt them at the table; tap each district's two tiles, then the "
                "nine evidence cards on display.")

    def _deal_entry(self) -> list[Any]:
        pad, c = self.pad, self.city
        d = pad.deal_district()
        out: list[Any] = []
        if d is not None:
            n = len(pad.tiles) + 1
            kind = SLOTS[pad.slot]
            out.append(label(f"[b]{c.name[d]}[/b] ({n} of {len(c.districts)}): its {kind} tile"))
            grid = GridLayout(cols=3, size_hint_y=None, spacing=dp(3))
            grid.bind(minimum_height=grid.setter("height"))
            for e in pad.tile_choices():
                text = c.name[e] if e else f"No {kind.capitalize()}"
                key = button(text, f"tile_{e or 'none'}", lambda e=e: self.screen.then(pad.tap_tile, e),
                             flat=e is not None, height=dp(52))
                top_picture(key, picture_for("pi", e), self.app.colors["text"], size=16)
                grid.add_widget(key)
            out.append(grid)
            if pad.half is not None:
                out.append(label(f"{c.name[d]}: {pad.name(pad.half[0])}, ...", muted=True))
        else:
            out.append(label(f"[b]The evidence display[/b]: tap the {pi.DISPLAY} cards laid out "
                             f"({len(pad.display)} of {pi.DISPLAY}), then Deal."))
            out += self._element_grids(list(c.kind), lambda e: self.screen.then(pad.tap_display, e), "display",
                                       lambda e: e in pad.display)
        done = [f"{c.name[dd]}: {pad.name(s)}, {pad.name(k)}" for dd, (s, k) in zip(c.districts, pad.tiles,
                                                                                     strict=False)]
        if done:
            out.append(label("\n".join(reversed(done)), muted=True))
        return out

    def _open_case(self, player: int) -> None:
        self.pad.open_case(player)
        self._stop_case_timer()
        self._case_timer = Clock.schedule_once(lambda *_: self._close_case(), CASE_SECONDS)
        self.screen.refresh()
        self.screen.ids.scroll.scroll_y = 1

    def _case_entry(self) -> list[Any]:
        pad = self.pad
        who = self.session.state.players[pad.case_by or 0]
        out: list[Any] = [label(f"[b]{who} only[/b] (the others look away): tap the three case cards you hold. "
                                f"This closes by itself after {CASE_SECONDS} s.")]
        out += self._element_grids(list(self.city.kind), lambda e: self._tap_case(e), "case",
                                   lambda e: pad.case.get(self.city.kind[e]) == e)
        return out

    def _tap_case(self, e: str) -> None:
        self.pad.tap_case(self.city.kind[e], e)
        self.screen.refresh()

    def _confirm_case(self) -> None:
        out = self.pad.confirm_case()
        if out.ok:  # refused, the page stays open (and closes by itself in time)
            self._stop_case_timer()
        self.screen.do(out)

    def _close_case(self) -> None:
        self._stop_case_timer()
        self.pad.close_case()
        self.screen.say("")  # a refusal said on the holder's page leaves with it
        self.screen.refresh()

    def _stop_case_timer(self) -> None:
        if self._case_timer is not None:
            self._case_timer.cancel()
            self._case_timer = None

    # --- the state --------------------------------------------------------------------------------

    def _players(self, s: dict[str, Any]) -> BoxLayout:
        """One line a player: colour, points, investigators left, penalties, turns (what fits the width, the turns
        first left out); whose turn it is in bold, underlined, in the accent colour and larger. In play what each
        found follows all the rows; at the end (and before play) each row keeps it under its line."""
        box = BoxLayout(orientation="vertical", size_hint_y=None)
        box.bind(minimum_height=box.setter("height"))
        colours, play = s["colours"], s["phase"] == "play"
        fs, big = self.app.fs * sp(14), self.app.fs * sp(17)
        room = (self.screen.width - dp(12)) * (0.44 if self.screen.landscape else 1) - dp(12) - dp(4)

        def parts(p: str) -> list[str]:
            done = ""
            if play and s["done"][p]:
                solved = any(b["player"] == p for b in s["boxes"])
                done = f"[b]{'solved' if solved else 'out'}[/b] +{s['points'][p][s['mini_game'] - 1]}"
            n = s["penalties"][p]
            return [f"[b]{s['result']['scores'][p]}[/b] pts", done, f"{s['investigators_left'][p]} inv. left",
                    f"{n} penalt{'y' if n == 1 else 'ies'}" if n else "",
                    f"{s['turns'][p]} turn{'' if s['turns'][p] == 1 else 's'}"]

        def text(p: str, keep: int) -> str:
            head = f"{p}'s turn" if play and p == s["current"] else p
            return " · ".join([f"[b]{head}[/b]", *(x for x in parts(p)[:keep] if x)])

        def fits(keep: int) -> bool:
            return all(_width(text(p, keep), big if play and p == s["current"] else fs) <= room for p in s["players"])

        keep = next((k for k in (5, 4, 3, 2) if fits(k)), 1) if play else 5
        for i, p in enumerate(s["players"]):
            current = play and p == s["current"]
            found = "" if play else self._found(s, p)
            shown = text(p, keep) + (f"\n{found}" if found else "")
            line = Label(text=f"[u]{shown}[/u]" if current else shown, markup=True, font_size=big if current else fs,
                         padding=(dp(12), 0), size_hint_y=None, halign="left",
                         color=rgba(self.app.colors["text"]))  # no gap between rows: all five above the pad
            line.bind(width=lambda w, width: setattr(w, "text_size", (width, None)),
                      texture_size=lambda w, size: setattr(w, "height", size[1] + dp(1)))
            line.testid = f"player_{i}"  # for the driver: whether it is in view
            if current:
                line.color = rgba(self.app.colors["accent"])
            colour_bar(line, PALETTE.get(colours[p], "#888888"), side="left", thick=8)
            box.add_widget(line)
        return box

    def _found_lines(self, s: dict[str, Any]) -> list[Any]:
        """What each player found (discs and cubes out, evidence kept): under the players' rows, one label."""
        found = [f"[b]{p}[/b]: {f.removeprefix('Found: ')}" for p in s["players"] if (f := self._found(s, p))]
        return [label("[b]Found[/b] · " + " · ".join(found), muted=True)] if found else []

    @staticmethod
    def _found(s: dict[str, Any], player: str) -> str:
        """The discs and cubes a player has out: on investigators and on tiles."""
        def count(n: int, word: str) -> str:
            return f"{n} {word}{'s' if n != 1 else ''}" if n else ""

        bits = [f"{i['district']} " + " ".join(x for x in (count(i["discs"], "disc"), count(i["cubes"], "cube")) if x)
                for i in s["investigators"][player] if i["discs"] or i["cubes"]]
        bits += [f"{m['kind']} on {m['tile']}" for m in s["markers"][player]]
        if s["kept"][player]:  # evidence that earned nothing: the card stays in front of its taker
            bits.append("nothing on " + ", ".join(s["kept"][player]))
        return ("Found: " + "; ".join(bits)) if bits else ""

    @staticmethod
    def _display_line(s: dict[str, Any]) -> Any:
        return label("[b]Display[/b]: " + ", ".join(s["display"]) + f" · deck {s['deck']} · discards {s['discard']}",
                     muted=True)

    def _boxes(self, s: dict[str, Any]) -> Any:
        taken = ", ".join(f"{b['player']} {b['points']} ({b['turns']} turns)" for b in s["boxes"]) or "none yet"
        return label(f"[b]Boxes[/b] (7, 5, 3, 1): {taken}", muted=True)

    def _tiles(self, s: dict[str, Any]) -> Any:
        """Where each tile lies (public: the board shows them face up)."""
        lines = [f"{short(d)}: {t['suspect'] or 'no suspect'}, {t['crime'] or 'no crime'}" for d, t in s["tiles"].items()]
        return label("[b]The board[/b]\n" + "\n".join(lines), muted=True)

    def _finished(self, s: dict[str, Any]) -> list[Any]:
        out = []
        for f in s["mini_games"]:
            points = ", ".join(f"{p} {n}" for p, n in f["points"].items())
            cases = "; ".join(f"{p}'s case: {c['suspect']}, {c['crime']}, {c['location']}"
                              for p, c in f["cases"].items() if c)
            out.append(label(f"[b]Mini-game {f['mini_game']}[/b]: {points}\n{cases}", muted=True))
        return out
