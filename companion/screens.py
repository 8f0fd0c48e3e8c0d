"""The companion's screens around the table: start, new game, history, rules, settings.

Layout lives in companion/kv/<screen>.kv; what they say comes from plain modules (store,
progress, history, share) that tests drive without a window.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp, sp
from kivy.properties import DictProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from casebook.companion.tables import TABLES, table_module
from casebook.companion.tables.setup import missing, options, pick_grid, row_text
from casebook.companion.theme import PLAYER_COLOURS, blend, rgba, text_on
from casebook.companion.widgets import CButton, button, label, numbers_kept_on, top_picture

if TYPE_CHECKING:
    from casebook.companion.progress import Standing
    from casebook.companion.store import SavedGame

# The rules core (every game's engine, the logs, the history) is imported where a screen first needs it, not
# here: the start screen of a phone with no saved game is up before any of it is read (benchmarks/app.py).

SECRET_SECONDS = 30  # an open secret entry closes itself after this long
PLAYER_ROWS = 7  # name rows in newgame.kv (p1..p7); a game's NewGameSpec shows as many as it takes


def row(*widgets: Any, widths: tuple[float | None, ...] = ()) -> BoxLayout:
    """A horizontal row as tall as its tallest part; buttons and labels fill it, stacks sit at the top.

    `widths` fixes some widths (None: share the rest)."""
    box = BoxLayout(size_hint_y=None, spacing=dp(4))

    def need(w: Any) -> float:
        return float(w.minimum_height) if isinstance(w, BoxLayout) else float(w.texture_size[1] + dp(12))

    def fit(*_: Any) -> None:
        box.height = max([dp(48), *(need(w) for w in widgets)])

    for i, w in enumerate(widgets):
        width = widths[i] if i < len(widths) else None
        if width is not None:
            w.size_hint_x, w.width = None, width
        if isinstance(w, BoxLayout):
            w.pos_hint = {"top": 1}
            w.bind(minimum_height=fit)
        else:
            w.size_hint_y = 1
            w.bind(texture_size=fit)
        box.add_widget(w)
    fit()
    return box


def steady_label(text: str, longest: str, **kw: Any) -> FloatLayout:
    """A label that keeps the height of the longest text it may show, so nothing around it moves as it grows."""
    box = FloatLayout(size_hint_y=None)
    room = label(longest, opacity=0, pos_hint={"x": 0, "top": 1}, **{**kw, "bold": True})
    room.bind(height=box.setter("height"))
    box.add_widget(room)
    box.add_widget(label(text, pos_hint={"x": 0, "top": 1}, **kw))
    return box


def column(*widgets: Any) -> BoxLayout:
    """A vertical stack as tall as what it holds, following its parts as they wrap and grow."""
    box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(4))
    box.bind(minimum_height=box.setter("height"))
    for w in widgets:
        box.add_widget(w)
    return box


SWATCH_LETTERS = 4  # the most of a name a 48 dp colour swatch shows at 16 sp


def swatch_labels(names: list[str]) -> list[str]:
    """What each player's colour swatch shows: the shortest start of the name no other player's name shares
    ('Ale', 'Alb'); names alike for longer than a swatch holds show the initial and the seat ('A1', 'A2');
    an empty name its seat."""
    folded = [n.strip().casefold() for n in names]
    out = []
    for i, name in enumerate(n.strip() for n in names):
        if not name:
            out.append(str(i + 1))
            continue
        others = [f for j, f in enumerate(folded) if j != i and f]
        size = next((k for k in range(1, len(name) + 1)
                     if not any(o.startswith(folded[i][:k]) for o in others)), None)
        if size is None and folded[i] not in others:  # the whole of a name that starts another: Ann, Anna
            size = len(name)
        if size is None or size > SWATCH_LETTERS:
            out.append(f"{name[:1].upper()}{i + 1}")
        else:
            out.append(name[:size])
    return out


# --- start ---------------------------------------------------------------------------------------

class StartScreen(Screen):
    """Saved games with their progress or result (resume, share, delete), and per-game statistics."""

    confirming = StringProperty("")  # the game whose delete waits for a confirmation

    def on_pre_enter(self, *args: Any) -> None:
        self.confirming = ""
        self.ids.info.text = ""
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        games = app.store.games()
        standings: dict[str, Standing | None] = {}
        if games:
            from casebook.companion.progress import standing, statistics_line

            kept = app.standings
            for g in games:
                found, standings[g.id] = kept.get(g.id, g.log) if g.log is not None else (True, None)
                if not found and g.log is not None and g.game in app.dbs:  # a log changed since: replayed once
                    standings[g.id] = standing(app.dbs[g.game], g.log)
                    kept.put(g.id, g.log, standings[g.id])
            kept.forget_all_but([g.id for g in games])
            kept.save()
        self.ids.notice.text = " ".join(g.warning for g in games if g.warning)
        stats = []
        for gid in TABLES:
            mine = [standings[g.id] for g in games if g.game == gid]
            if mine:
                stats.append(statistics_line(app.titles[gid], mine))
        self.ids.stats.text = numbers_kept_on("\n".join(stats))
        box = self.ids.games
        box.clear_widgets()
        if not games:
            box.add_widget(label("No saved games yet.", muted=True))
        for g in games:
            box.add_widget(self._game(g, standings[g.id]))

    def _game(self, g: SavedGame, st: Standing | None) -> Any:
        from casebook.companion.progress import progress_line

        app = App.get_running_app()
        title = app.titles.get(g.game, g.game)
        who = " v ".join(g.players) if g.players else g.id
        when = time.strftime("%d %b %H:%M", time.localtime(g.modified))
        progress = progress_line(st, g.events) if g.log is not None else "damaged: cannot be resumed"
        if self.confirming == g.id:
            ask = label(numbers_kept_on(f"Delete {title}: {who} ({progress})? It cannot be brought back."))
            keep = button("Keep", f"delete_no_{g.id}", self._cancel_delete)
            gone = button("Delete", f"delete_yes_{g.id}", lambda: self._delete(g), flat=True)
            gone.color = rgba(app.colors["error"])
            return column(ask, row(keep, gone))
        text = numbers_kept_on(f"[b]{title}: {who}[/b]\n{progress}\n{when}")
        if g.log is not None:
            main = button(text, f"resume_{g.id}", lambda: app.resume(g.id, g.game), markup=True)
        else:
            main = label(text)
        side = [button("Delete", f"delete_{g.id}", lambda: self._ask_delete(g.id), flat=True)]
        if st is not None and st.finished:
            side.insert(0, button("Share", f"share_{g.id}", lambda: self.share(g, st), flat=True))
        return row(main, column(*side), widths=(None, dp(84)))

    def _ask_delete(self, game_id: str) -> None:
        self.confirming = game_id
        self.refresh()

    def _cancel_delete(self) -> None:
        self.confirming = ""
        self.refresh()

    def _delete(self, g: SavedGame) -> None:
        app = App.get_running_app()
        app.store.delete(g.id)
        title = app.titles.get(g.game, g.game)
        self.confirming = ""
        self.ids.info.text = f"Deleted {title}: {' v '.join(g.players) or g.id}."
        self.refresh()

    def share(self, g: SavedGame, st: Standing) -> None:
        """A finished game's result and log: the share sheet on Android, a folder on a desktop."""
        from casebook.companion.history import history
        from casebook.companion.progress import progress_line
        from casebook.companion.session import Session
        from casebook.companion.share import (
            export_folder,
            result_text,
            share_on_android,
            write_export,
        )
        from casebook.rules.games import GAMES

        app = App.get_running_app()
        assert g.log is not None
        title = app.titles[g.game]
        lines = [f"{line.number}. {line.text}" for group in history(Session(app.dbs[g.game], g.log))
                 for line in group.lines if not line.undone]
        session = Session(app.dbs[g.game], g.log)
        report = GAMES[g.game].report(session.summary(None))
        text = result_text(title, g.log, progress_line(st, g.events), report, lines)
        if share_on_android(f"{title}: {' v '.join(g.players)}", text, g.path):
            return
        folder = export_folder(app.data_dir)
        written = write_export(folder, g.id, text, g.path)
        self.ids.info.text = f"Saved {written[0].name} and {written[1].name} in {folder}"


# --- new game ------------------------------------------------------------------------------------

class NewGameScreen(Screen):
    """Pick the game, name the players (each their own colour), the variants, what was dealt, start."""

    game = StringProperty("graves")
    colours = DictProperty({"p1": "blue", "p2": "vermillion", "p3": "green"})
    variants = DictProperty({})

    def __init__(self, **kw: Any):
        super().__init__(**kw)
        self.picked: dict[str, list[str]] = {}  # a row dealt at the table, in order
        self.secret: dict[str, str] = {}  # what a player entered unseen; never drawn on screen
        self.by_seed = False
        self.secret_open = ""  # the secret being entered now
        self.count = 0  # players on the form (0: the game's usual number)
        self._close_event: Any = None
        self.secrets_refusal = ""  # "Enter the secrets again...": shown until everyone has
        self._from_top = 0.0  # how far the form is scrolled down from its top, in pixels
        self._keep_place = False  # back from the rules: the form as it was left

    def on_kv_post(self, base_widget: Any) -> None:
        # the form grows and shrinks below the game buttons as a game is picked (players, variants, a dealt row):
        # it keeps the same distance from its top, so a button never slides away from under the next tap
        self.ids.scroll.bind(scroll_y=self._remember_top)
        self.ids.form.bind(height=self._keep_top)

    def _scroll_range(self) -> float:
        return max(0.0, float(self.ids.form.height - self.ids.scroll.height))

    def _remember_top(self, *_: Any) -> None:
        if self._scroll_range() > 0:
            self._from_top = (1 - self.ids.scroll.scroll_y) * self._scroll_range()

    def _keep_top(self, *_: Any) -> None:
        span = self._scroll_range()
        self.ids.scroll.scroll_y = 1 - min(1.0, self._from_top / span) if span > 0 else 1

    def to_top(self, *_: Any) -> None:
        """The form at its top: the game buttons where a player looks for them, whatever the last table left."""
        self._from_top = 0.0
        scroll = self.ids.scroll
        scroll.effect_y.velocity = 0  # a fling the last table left going does not carry on
        scroll.scroll_y = 1

    @property
    def spec(self) -> Any:
        spec = table_module(self.game).NEW_GAME
        if hasattr(spec, "for_form"):  # a form shaped by the players and toggles (Hasty: the row, each secret)
            on = [v for v, flag in self.variants.items() if flag]
            return spec.for_form(App.get_running_app().dbs[self.game], self.count or spec.players, on, self.picked,
                                 self.by_seed)
        return spec

    def on_pre_enter(self, *args: Any) -> None:
        self.ids.error.text = ""
        if not self.ids.seed.text:  # a fresh seed for each new game, unless the player types one
            self.ids.seed.text = str(random.randrange(1, 10000))
        self.redraw()
        if not self._keep_place:
            self.to_top()
            Clock.schedule_once(self.to_top, 0)  # again once the redrawn form has its height
        self._keep_place = False

    def on_leave(self, *args: Any) -> None:
        # a rule looked up half-way down the form comes back to the same place; any other way in starts at the top
        self._keep_place = self.manager is not None and self.manager.current == "rules"
        self._close_secret()
        self.secret = {}  # a secret never waits on a form left behind for whoever opens it next

    def redraw(self) -> None:
        app = App.get_running_app()
        spec = self.spec
        self.ids.title.text = f"New game: {app.titles[self.game]}"
        games = self.ids.games
        games.clear_widgets()
        for gid in TABLES:
            games.add_widget(button(app.titles[gid], f"game_{gid}", lambda g=gid: self.pick_game(g),
                                    flat=gid != self.game))
        self.ids.players_note.text = spec.players_note
        self.count = self.count or spec.players
        self._show_player_rows()
        self._player_count()
        self._colours()
        grid = self.ids.variants
        grid.clear_widgets()
        self.ids.variants_note.text = "Variants" if spec.variants else ""
        for vid, name in spec.variants.items():
            grid.add_widget(button(("[x] " if self._played(vid) else "[  ] ") + name, f"variant_{vid}",
                                   lambda v=vid: self._toggle(v), flat=not self._played(vid)))
        self.setup_form()

    def names_changed(self) -> None:
        """A player's name changed: the swatches' labels and the secret's owner follow it."""
        if self.manager is not None and "setup" in self.ids:
            self._colours()
            self.setup_form()

    def names(self) -> list[str]:
        return [self.ids[f"p{n}"].text.strip() for n in range(1, (self.count or self.spec.players) + 1)]

    def _player_count(self) -> None:
        """Add / remove a player, for a game that takes a range of players."""
        spec, box = self.spec, self.ids.player_count
        box.clear_widgets()
        low, high = spec.min_players or spec.players, spec.max_players or spec.players
        box.height = dp(48) if high > low else 0
        if high > low:
            more = button("Add a player", "players_more", lambda: self._set_count(self.count + 1), flat=True)
            fewer = button("Remove the last", "players_fewer", lambda: self._set_count(self.count - 1), flat=True)
            more.disabled, fewer.disabled = self.count >= high, self.count <= low
            box.add_widget(fewer)
            box.add_widget(more)

    def _set_count(self, n: int) -> None:
        spec = self.spec
        self.count = max(spec.min_players or spec.players, min(spec.max_players or spec.players, n))
        for m in range(1, self.count + 1):
            if not self.ids[f"p{m}"].text.strip() and m <= len(spec.names):
                self.ids[f"p{m}"].text = spec.names[m - 1]
        self.redraw()

    def setup_form(self) -> None:
        """What was dealt at the table (or a seed), and the secrets players entered."""
        app = App.get_running_app()
        spec, db, box = self.spec, app.dbs[self.game], self.ids.setup
        box.clear_widgets()
        picks = getattr(spec, "picks", [])
        seeded = spec.seed_note is not None and (self.by_seed or not any(p.seeded for p in picks))
        for pick in picks:
            if pick.seeded:
                box.add_widget(row(button("Dealt at the table", "deal_table", lambda: self._deal_by_seed(False),
                                          flat=self.by_seed),
                                   button(pick.seeded, "deal_seed", lambda: self._deal_by_seed(True),
                                          flat=not self.by_seed)))
                if self.by_seed:
                    continue
            box.add_widget(self._pick_form(pick, options(db, pick.component)))
        self.ids.seed_note.text = spec.seed_note if seeded else ""
        self.ids.seed.height, self.ids.seed.opacity, self.ids.seed.disabled = \
            (dp(48), 1, False) if seeded else (0, 0, True)
        self.ids.secrets.clear_widgets()
        for secret in getattr(spec, "secrets", []):
            self.ids.secrets.add_widget(self._secret_form(secret, secret.choices or options(db, secret.component)))

    def _pick_form(self, pick: Any, choices: list[tuple[str, str]]) -> Any:
        chosen = self.picked.setdefault(pick.key, [])
        names = dict(choices)
        parts: list[Any] = [label(pick.title)]
        parts.append(pick_grid(choices, chosen, f"pick_{pick.key}", lambda c: self._pick(pick, c), game=self.game))
        # under the buttons, as tall as the longest row from the start: its growing never moves them under the next tap
        longest = sorted(names, key=lambda c: len(names[c]), reverse=True)[:pick.count]
        parts.append(steady_label(row_text(names, chosen, pick.count), row_text(names, longest, pick.count),
                                  bold=bool(chosen), muted=not chosen))
        back = button("Take back the last", f"pick_{pick.key}_back", lambda: self._unpick(pick, 1))
        clear = button("Clear the row", f"pick_{pick.key}_clear", lambda: self._unpick(pick, len(chosen)))
        back.disabled = clear.disabled = not chosen
        parts.append(row(back, clear))
        return column(*parts)

    def _pick(self, pick: Any, cid: str) -> None:
        chosen = self.picked.setdefault(pick.key, [])
        if cid not in chosen and len(chosen) < pick.count:
            chosen.append(cid)
        self.ids.error.text = ""
        self.setup_form()

    def _unpick(self, pick: Any, n: int) -> None:
        if n > 0:
            del self.picked[pick.key][-n:]
        self.setup_form()

    def _deal_by_seed(self, on: bool) -> None:
        self.by_seed = on
        self.ids.error.text = ""
        self.setup_form()

    def _secret_form(self, secret: Any, choices: list[tuple[str, str]]) -> Any:
        names = self.names()
        who = names[secret.player] if secret.player < len(names) and names[secret.player] else "The Mastermind"
        if self.secret_open == secret.key:
            parts = [label(f"[b]{who} only[/b] (the others look away): tap {secret.what}. "
                           "It is kept hidden and never shown here.")]
            grid = GridLayout(cols=2 if len(choices) > 6 else 1, size_hint_y=None, spacing=dp(4))  # in one view
            grid.bind(minimum_height=grid.setter("height"))
            from casebook.companion.pictures import picture_for

            for cid, name in choices:  # each card's own picture left of its name, as the row's keys show it
                key = button(name, f"secret_{secret.key}_{cid}", lambda c=cid: self._enter_secret(secret.key, c),
                             flat=True)
                top_picture(key, picture_for(self.game, cid), App.get_running_app().colors["text"], size=18,
                            at="left")
                grid.add_widget(key)
            parts.append(grid)
            parts.append(button("Cancel", f"secret_{secret.key}_cancel", self._close_secret))
            panel = column(*parts)
            Clock.schedule_once(lambda *_: self.ids.scroll.scroll_to(panel, padding=dp(8)), 0.05)
            return panel
        entered = secret.key in self.secret
        status = (f"{who}'s {secret.noun} is entered and hidden." if entered
                  else f"{who}: enter {secret.what} now, unseen by the others, {secret.later}.")
        action = f"{who}: change it" if entered else f"{who}: enter it secretly"
        return column(label(status, muted=True), button(action, f"secret_{secret.key}", lambda: self._open_secret(secret.key)))

    def _open_secret(self, key: str) -> None:
        self.secret_open = key
        if self._close_event is not None:
            self._close_event.cancel()
        self._close_event = Clock.schedule_once(lambda *_: self._close_secret(), SECRET_SECONDS)
        self.setup_form()

    def _enter_secret(self, key: str, value: str) -> None:
        self.secret[key] = value
        entered = all(s.key in self.secret for s in getattr(self.spec, "secrets", []))
        if entered and self.secrets_refusal and self.ids.error.text == self.secrets_refusal:
            self.ids.error.text = ""  # everyone has entered theirs again: the refusal is answered
        self._close_secret()

    def back(self) -> bool:
        """Back on the form: close a secret picker that is open (the secrets entered stay); False if none was."""
        if not self.secret_open:
            return False
        self._close_secret()
        return True

    def _close_secret(self) -> None:
        if self._close_event is not None:
            self._close_event.cancel()
            self._close_event = None
        if self.secret_open:
            self.secret_open = ""
            self.setup_form()

    def pick_game(self, game_id: str) -> None:
        if game_id != self.game:
            self.game = game_id
            self.variants = {}
            self.picked, self.secret, self.by_seed, self.secret_open = {}, {}, False, ""
            self.count = self.spec.players
            for n, name in enumerate(self.spec.names, start=1):
                self.ids[f"p{n}"].text = name
        self.redraw()

    def _show_player_rows(self) -> None:
        """Only the rows of the players in the game are in the form: a hidden row taken out (not only set to
        no height), so the form has no gap of spacing where the unused rows were."""
        if not hasattr(self, "_rows"):  # strong references: kv ids are weak, and a row out of the form must live
            self._rows = [self.ids[f"{k}{n}"].__self__ for n in range(1, PLAYER_ROWS + 1) for k in ("p", "c")]
        form = self._rows[0].parent or self.ids.setup.parent
        for w in self._rows:
            if w.parent is not None:
                w.parent.remove_widget(w)
        for i, w in enumerate(self._rows):
            shown = i // 2 < self.count
            w.opacity, w.disabled = (1, False) if shown else (0, True)
            if shown:
                if i % 2 == 0:
                    w.height = dp(48)
                form.add_widget(w, index=form.children.index(self.ids.variants_note.__self__) + 1)

    def _played(self, vid: str) -> bool:
        """Whether the toggle is played: ticked, or the first of a group one of which is always played (Hasty's base
        set) while none of the group is ticked. The form shows it so."""
        if self.variants.get(vid):
            return True
        one_of = self.spec.one_of
        return bool(one_of) and vid == one_of[0] and not any(self.variants.get(v) for v in one_of)

    def _toggle(self, vid: str) -> None:
        spec = self.spec
        if self._played(vid) and vid in spec.one_of and not any(self._played(v) for v in spec.one_of if v != vid):
            # the form shows what is played: with no other ticked, this one is, so it stays ticked
            others = " or ".join(spec.variants[v] for v in spec.one_of if v != vid)
            self.ids.error.text = (f"{spec.variants[vid]} stays ticked: one is always played. To play without it, "
                                   f"tick {others} instead.")
            return
        self.ids.error.text = ""
        self.variants[vid] = not self.variants.get(vid)
        if self.variants[vid]:
            for a, b in self.spec.exclusive:
                if vid in (a, b):
                    self.variants[b if vid == a else a] = False
        self.redraw()

    def palette(self) -> dict[str, str]:
        """The colours players pick from: the game's own (its pieces'), else the app's first five."""
        return dict(self.spec.palette) or dict(list(PLAYER_COLOURS.items())[:5])

    def _colours(self) -> None:
        """One row of colours a player; a colour another player took shows who (swatch_labels) and cannot be taken."""
        app = App.get_running_app()
        count = self.count or self.spec.players
        palette = self.palette()
        labels = swatch_labels([self.ids[f"p{m}"].text for m in range(1, count + 1)])  # Alexandra, Alexander: A1, A2
        for n in range(1, count + 1):  # each player a colour of the game's palette, none shared
            taken_now = [self.colours.get(f"p{m}") for m in range(1, n)]
            if self.colours.get(f"p{n}") not in palette or self.colours.get(f"p{n}") in taken_now:
                self.colours[f"p{n}"] = next(c for c in palette if c not in taken_now)
        for n in range(1, count + 1):
            slot = f"p{n}"
            taken = {self.colours[f"p{m}"]: labels[m - 1] for m in range(1, count + 1) if m != n}
            box = self.ids[f"c{n}"]
            box.clear_widgets()
            lines = -(-len(palette) // 6)  # more than six colours: two rows, each swatch still 48 dp wide
            box.orientation, box.height = ("vertical", dp(100)) if lines > 1 else ("horizontal", dp(48))
            rows = [BoxLayout(spacing=dp(4)) for _ in range(lines)] if lines > 1 else [box]
            for line in rows if lines > 1 else []:
                box.add_widget(line)
            for i, (name, hexcol) in enumerate(palette.items()):
                mine = self.colours[slot] == name
                # taken: greyed out from the start, so the kv's disabled grey never paints over the colour itself
                b = CButton(text="*" if mine else taken.get(name, ""), testid=f"colour_{slot}_{name}", flat=False,
                            disabled=name in taken)
                fill = hexcol if name not in taken else blend(hexcol, app.colors["bg"], 0.35)
                b.background_color = rgba(fill)
                b.color = b.disabled_color = rgba(text_on(fill))  # its letter at 4.5:1 on the colour, taken or not
                if name not in taken:
                    b.bind(on_release=lambda *_, s=slot, c=name: self._pick_colour(s, c))
                rows[i * lines // len(palette)].add_widget(b)

    def _pick_colour(self, slot: str, name: str) -> None:
        others = [self.colours[f"p{m}"] for m in range(1, (self.count or self.spec.players) + 1) if f"p{m}" != slot]
        if name not in others:
            self.colours[slot] = name
        self._colours()

    def chosen_setup(self) -> dict[str, Any] | str:
        """The setup keys players entered (a dealt row, secrets); a sentence if something is missing."""
        out: dict[str, Any] = {}
        for pick in getattr(self.spec, "picks", []):
            if pick.seeded and self.by_seed:
                continue
            chosen = self.picked.get(pick.key, [])
            why = missing(pick, chosen)
            if why:
                return why
            out[pick.key] = list(chosen)
        for secret in getattr(self.spec, "secrets", []):
            if secret.key in self.secret and secret.into:  # gathered by player name (Hasty: secrets: {Ann: ...})
                out.setdefault(secret.into, {})[self.names()[secret.player]] = self.secret[secret.key]
            elif secret.key in self.secret:
                out[secret.key] = self.secret[secret.key]
            elif secret.into:  # one of every player's secrets: none may be left for later
                who = self.names()[secret.player]
                return f"{who}: enter your {secret.noun} first (the button '{who}: enter it secretly')."
        return out

    def start_game(self) -> None:
        from casebook.rules.engine import IllegalAction
        from casebook.rules.log import GameLog, start

        app = App.get_running_app()
        spec = self.spec
        names = self.names()
        colours = [self.colours[f"p{n}"] for n in range(1, (self.count or spec.players) + 1)]
        if len(set(colours)) < len(colours):
            self.ids.error.text = "Each player needs a colour of their own."
            return
        chosen = self.chosen_setup()
        if isinstance(chosen, str):
            self.ids.error.text = chosen
            return
        variants = [v for v, on in self.variants.items() if on and v in spec.variants]
        seed = None
        # the seed also deals later rows (Life Is Pain, The Long Haul): a table that deals its own first row
        # deals the later ones too, so the game gets no seed and asks for each new row
        at_table = any(p.seeded for p in getattr(spec, "picks", [])) and not self.by_seed
        if spec.seed_note is not None and not at_table:
            seed = int(self.ids.seed.text) if self.ids.seed.text.strip() else int(time.time()) % 10000
        setup = {**spec.setup(names, colours, variants), **chosen}
        variants = setup.pop("variants", variants)  # a game may take some toggles into its setup (Hasty's card sets)
        log = GameLog(self.game, app.dbs[self.game].rules_version, names, variants, seed, setup,
                      created=time.strftime("%Y-%m-%dT%H:%M:%S"))
        try:
            start(app.dbs[self.game], log)  # a setup the rules refuse is told for people, before anything is saved
        except IllegalAction as exc:
            if exc.rule is not None and exc.rule.id in getattr(spec, "secret_rules", ()):
                self.secret = {}  # whose is wrong stays unsaid: everyone enters theirs again
                self.secrets_refusal = f"Enter the secrets again, each player unseen by the others: {exc.reason}."
                self.ids.error.text = self.secrets_refusal
            else:
                self.ids.error.text = f"{exc.rule.name}: {exc.reason}" if exc.rule else exc.reason
            self.setup_form()
            return
        error = app.start_session(log)
        self.ids.error.text = error or ""
        if error is None:
            self.picked, self.secret, self.by_seed, self.secret_open = {}, {}, False, ""
            self.ids.seed.text = ""  # the next new game draws its own seed


# --- history -------------------------------------------------------------------------------------

class HistoryScreen(Screen):
    """The game told event by event, by case and location (or turn); tap one to go back to it."""

    def on_pre_enter(self, *args: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        box = self.ids.events
        box.clear_widgets()
        if app.session is None:
            return
        from casebook.companion.history import history

        groups = history(app.session)
        if not groups:
            box.add_widget(label("No events yet.", muted=True))
        applied = len(app.session.log.events)
        locked = app.session.locked
        for group in groups:
            if group.heading:
                box.add_widget(label(f"[b][size={int(sp(17) * app.fs)}]{group.heading}[/size][/b]"))
            if group.title:
                box.add_widget(label(f"[b]{group.title}[/b]"))
            for line in group.lines:
                if line.undone:  # its words are gone with it: Redo brings them back
                    text = f"{line.number}. Undone: tap to redo up to here"
                    b = button(text, f"event_{line.number}", lambda n=line.number: self._go_to(n), flat=True)
                    b.color = rgba(app.colors["muted"])
                else:
                    b = button(f"{line.number}. {line.text}", f"event_{line.number}",
                               lambda n=line.number: self._go_to(n), flat=line.number != applied)
                    b.disabled = line.number < locked  # going back there would undo what the table saw
                b.halign = "left"
                box.add_widget(b)
        # the latest events in view; a short history stays at the top
        Clock.schedule_once(lambda *_: setattr(self.ids.scroll, "scroll_y", 0 if box.height > self.ids.scroll.height
                                               else 1), 0)
        undone = len(app.session.redo_stack)
        self.ids.status.text = f"{applied} event{'' if applied == 1 else 's'}" + (
            f"; {undone} undone (Redo brings {'it' if undone == 1 else 'them'} back)." if undone else ".") + (
            f" Events 1 to {locked} cannot be undone: event {locked} showed the table a secret." if locked else "")

    def _go_to(self, n: int) -> None:
        App.get_running_app().session.go_to(n)
        self.refresh()

    def undo(self) -> None:
        App.get_running_app().session.undo()
        self.refresh()

    def redo(self) -> None:
        App.get_running_app().session.redo()
        self.refresh()


# --- rules ---------------------------------------------------------------------------------------

KIND_LABELS = {"rule": "Rule", "faq": "FAQ", "card": "Card", "location": "Location"}


def source_label(hit: Any, titles: dict[str, str], across_games: bool) -> str:
    """Where a hit comes from, for people: 'Rule: The Park', 'FAQ: <question>', 'Card: 2 of Shoeprints'.

    The search's own label when it gives one; across games, the game's title comes first."""
    made = getattr(hit, "source_label", "")
    if made:
        return str(made)
    entry = hit.entry
    text = f"{KIND_LABELS.get(entry.kind, entry.kind.capitalize())}: {entry.title}"
    return f"{titles.get(entry.game, entry.game)} · {text}" if across_games else text


def search_hint(index: Any, game: str) -> str:
    """'a few words: initial setup, draw 3, turns': short rule titles of the game searched (one a game for all)."""
    short: dict[str, list[str]] = {}
    for e in index.entries:
        words = e.title.lower().split()
        words = words[1:] if words and words[0] in ("the", "a", "an") else words
        if e.kind == "rule" and 0 < len(words) <= 2 and (not game or e.game == game):
            short.setdefault(e.game, []).append(" ".join(words))
    picks = short.get(game, [])[:3] if game else [titles[0] for titles in short.values()][:3]
    return "a few words: " + ", ".join(picks) if picks else "a few words"


class RulesScreen(Screen):
    """Rules, FAQ rulings and card texts of the game in hand, or of the game (or all) the player picks."""

    game = StringProperty("")  # "" searches every game

    def on_pre_enter(self, *args: Any) -> None:
        self.redraw_games()

    def redraw_games(self) -> None:
        app = App.get_running_app()
        box = self.ids.games
        box.clear_widgets()
        for gid, name in [("", "All games"), *app.titles.items()]:
            box.add_widget(button(name, f"rules_game_{gid or 'all'}", lambda g=gid: self.pick_game(g),
                                  flat=gid != self.game))
        self.ids.scope.text = (f"Searching {app.titles[self.game]}" if self.game
                               else "Searching all games")
        self.ids.query.hint_text = search_hint(app.index, self.game)  # examples from the game searched

    def titles(self) -> dict[str, str]:
        return dict(App.get_running_app().titles)

    def pick_game(self, game: str) -> None:
        self.game = game
        self.redraw_games()
        self.search(self.ids.query.text)

    def search(self, text: str) -> None:
        app = App.get_running_app()
        box = self.ids.results
        box.clear_widgets()
        if not text.strip():
            box.add_widget(label("Type a few words.", muted=True))
            return
        hits = app.index.search(text, game=self.game or None, limit=8)
        if not hits:
            where = app.titles[self.game] if self.game else "any game"
            box.add_widget(label(f"Nothing found in {where}: try other words.", muted=True))
        for i, hit in enumerate(hits):
            e = hit.entry
            heading = source_label(hit, self.titles(), not self.game)
            first = e.text.split("\n")[0]
            excerpt = first if len(first) <= 90 else first[:88].rsplit(" ", 1)[0] + "…"
            text = f"[b]{heading}[/b]\n{excerpt}"
            box.add_widget(button(text, f"hit_{i}", lambda h=hit: self._open(h), flat=True, markup=True))

    def _open(self, hit: Any) -> None:
        entry = hit.entry
        box = self.ids.results
        box.clear_widgets()
        box.add_widget(label(f"[b]{entry.title}[/b]"))
        box.add_widget(label(entry.text))
        game = self.titles().get(entry.game, entry.game)
        source = source_label(hit, self.titles(), not self.game)
        box.add_widget(label(source if game in source else f"{source} · {game}", muted=True))
        box.add_widget(button("Back to results", "hit_back", lambda: self.search(self.ids.query.text), flat=True))


class SettingsScreen(Screen):
    def on_pre_enter(self, *_args: Any) -> None:
        """The makers of the icons among the pictures, named as their licence asks (read now, not at start)."""
        from casebook.companion.pictures import credit

        said = credit()
        self.ids.credit.text = f"Pictures: {said}." if said else ""
