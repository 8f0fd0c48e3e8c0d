"""The Casebook companion (Kivy): start, new game, table, history, rules, settings.

Layout lives in companion/kv/*.kv (one file a screen); the game logic in plain classes
(Session, Store, each game's pad) that tests drive without a window. Each game's table is a
module of companion/tables/. Every tap that changes the
game is an event of the rules core, saved before the screen updates.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("KIVY_NO_ARGS", "1")

from kivy.app import App  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.lang import Builder  # noqa: E402
from kivy.metrics import dp  # noqa: E402
from kivy.properties import BooleanProperty, DictProperty, NumericProperty, StringProperty  # noqa: E402
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager  # noqa: E402

from companion.session import Session  # noqa: E402
from companion.store import Store  # noqa: E402
from companion.tables import TABLES, table_module  # noqa: E402
from companion.theme import PLAYER_COLOURS, THEMES, rgba  # noqa: E402
from companion.widgets import CButton, button, label  # noqa: E402
from rules.cards import GameDatabase, load_database  # noqa: E402
from rules.log import GameLog  # noqa: E402
from rules.search import RulesIndex  # noqa: E402

HERE = Path(__file__).resolve().parent


class StartScreen(Screen):
    def on_pre_enter(self, *args: Any) -> None:
        app = App.get_running_app()
        box = self.ids.games
        box.clear_widgets()
        games = app.store.games(is_finished=app.is_finished)
        notices = [g.warning for g in games if g.warning and not g.finished]
        self.ids.notice.text = ("Recovered: " + "; ".join(notices)) if notices else ""
        if not games:
            box.add_widget(label("No saved games yet.", muted=True))
        for g in games:
            when = time.strftime("%d %b %H:%M", time.localtime(g.modified))
            status = "finished" if g.finished else f"{g.events} events"
            title = app.dbs[g.game].short_title if g.game in app.dbs else g.game
            box.add_widget(button(f"{title}: {' v '.join(g.players)}\n{when} · {status}", f"resume_{g.id}",
                                  lambda gid=g.id, game=g.game: app.resume(gid, game)))


class NewGameScreen(Screen):
    """Pick the game, name the players (with colours), the variants and the seed, start."""

    game = StringProperty("graves")
    colours = DictProperty({"p1": "blue", "p2": "vermillion", "p3": "green"})
    variants = DictProperty({})

    @property
    def spec(self) -> Any:
        return table_module(self.game).NEW_GAME

    def on_pre_enter(self, *args: Any) -> None:
        self.ids.error.text = ""
        if not self.ids.seed.text:
            self.ids.seed.text = str(int(time.time()) % 10000)
        self.redraw()

    def redraw(self) -> None:
        app = App.get_running_app()
        spec = self.spec
        self.ids.title.text = f"New game: {app.dbs[self.game].short_title}"
        games = self.ids.games
        games.clear_widgets()
        for gid in TABLES:
            games.add_widget(button(app.dbs[gid].short_title, f"game_{gid}", lambda g=gid: self.pick_game(g),
                                    flat=gid != self.game))
        self.ids.players_note.text = spec.players_note
        for n in (1, 2, 3):
            shown = n <= spec.players
            for wid in (f"p{n}", f"c{n}"):
                w = self.ids[wid]
                w.height, w.opacity, w.disabled = (dp(48), 1, False) if shown else (0, 0, True)
        self._colours()
        grid = self.ids.variants
        grid.clear_widgets()
        self.ids.variants_note.text = "Variants" if spec.variants else ""
        for vid, name in spec.variants.items():
            grid.add_widget(button(("[x] " if self.variants.get(vid) else "[  ] ") + name, f"variant_{vid}",
                                   lambda v=vid: self._toggle(v), flat=not self.variants.get(vid)))
        seeded = spec.seed_note is not None
        self.ids.seed_note.text = spec.seed_note or ""
        self.ids.seed.height, self.ids.seed.opacity, self.ids.seed.disabled = \
            (dp(48), 1, False) if seeded else (0, 0, True)

    def pick_game(self, game_id: str) -> None:
        if game_id != self.game:
            self.game = game_id
            self.variants = {}
            defaults = self.spec.names
            for n, name in enumerate(defaults, start=1):
                self.ids[f"p{n}"].text = name
        self.redraw()

    def _toggle(self, vid: str) -> None:
        self.variants[vid] = not self.variants.get(vid)
        if self.variants[vid]:
            for a, b in self.spec.exclusive:
                if vid in (a, b):
                    self.variants[b if vid == a else a] = False
        self.redraw()

    def _colours(self) -> None:
        for n in range(1, self.spec.players + 1):
            slot = f"p{n}"
            box = self.ids[f"c{n}"]
            box.clear_widgets()
            for name, hexcol in list(PLAYER_COLOURS.items())[:5]:
                chosen = self.colours[slot] == name
                b = CButton(text="*" if chosen else "", testid=f"colour_{slot}_{name}", flat=False)
                b.background_color = rgba(hexcol)
                b.color = (0, 0, 0, 1)
                b.bind(on_release=lambda *_, s=slot, n=name: self._pick(s, n))
                box.add_widget(b)

    def _pick(self, slot: str, name: str) -> None:
        self.colours[slot] = name
        self._colours()

    def start_game(self) -> None:
        app = App.get_running_app()
        spec = self.spec
        names = [self.ids[f"p{n}"].text.strip() for n in range(1, spec.players + 1)]
        variants = [v for v, on in self.variants.items() if on and v in spec.variants]
        seed = None
        if spec.seed_note is not None:
            seed = int(self.ids.seed.text) if self.ids.seed.text.strip() else int(time.time()) % 10000
        colours = [self.colours[f"p{n}"] for n in range(1, spec.players + 1)]
        log = GameLog(self.game, app.dbs[self.game].rules_version, names, variants, seed,
                      spec.setup(names, colours, variants), created=time.strftime("%Y-%m-%dT%H:%M:%S"))
        error = app.start_session(log)
        self.ids.error.text = error or ""


class TableScreen(Screen):
    """The frame of every game's table: a score line, the game's own widgets, a message, the nav bar."""

    viewer = NumericProperty(-1)  # -1: nobody's secrets shown; else the player holding the phone

    def on_pre_enter(self, *args: Any) -> None:
        self.refresh()

    def undo(self) -> None:
        app = App.get_running_app()
        if app.session and app.session.undo():
            app.table.clear()
            self.ids.message.text = "Undone."
        self.refresh()

    def then(self, fn: Any, *args: Any) -> None:
        """Run a change to the half-entered action, then redraw."""
        fn(*args)
        self.refresh()

    def do(self, outcome: Any) -> None:
        """Show an event's outcome: a refusal's rule in the message line, else redraw."""
        self.ids.message.text = "" if outcome.ok else outcome.message
        self.refresh()

    def start_page(self) -> Any:
        """An empty body for a picker the table shows instead of itself (its Back redraws the table)."""
        body = self.ids.body
        body.clear_widgets()
        return body

    def set_viewer(self, who: int) -> None:
        self.viewer = who
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        if app.session is None or app.table is None:
            return
        s = app.session.summary(self.viewer if self.viewer >= 0 else None)
        self.ids.scoreline.text = app.table.scoreline(s)
        body = self.start_page()
        for widget in app.table.widgets(s):
            body.add_widget(widget)
        if app.table.message:
            self.ids.message.text = app.table.message


class HistoryScreen(Screen):
    def on_pre_enter(self, *args: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        box = self.ids.events
        box.clear_widgets()
        if app.session is None:
            return
        lines = app.session.history()
        if not lines:
            box.add_widget(label("No events yet.", muted=True))
        for n, line in enumerate(lines, start=1):
            box.add_widget(button(line, f"event_{n}", lambda n=n: self._go_to(n), flat=True))
        for i, event in enumerate(reversed(app.session.redo_stack), start=len(lines) + 1):
            box.add_widget(label(f"{i}. (undone) {event.get('action')} {event.get('by')}", muted=True))

    def _go_to(self, n: int) -> None:
        App.get_running_app().session.go_to(n)
        self.refresh()

    def undo(self) -> None:
        App.get_running_app().session.undo()
        self.refresh()

    def redo(self) -> None:
        App.get_running_app().session.redo()
        self.refresh()


class RulesScreen(Screen):
    def search(self, text: str) -> None:
        app = App.get_running_app()
        box = self.ids.results
        box.clear_widgets()
        if not text.strip():
            box.add_widget(label("Type a few words.", muted=True))
            return
        hits = app.index.search(text, game=app.rules_game(), limit=8)
        if not hits:
            box.add_widget(label("Nothing found: try other words.", muted=True))
        for i, hit in enumerate(hits):
            e = hit.entry
            b = button(f"{e.title}\n[{e.source}]", f"hit_{i}", lambda e=e: self._open(e), flat=True)
            box.add_widget(b)

    def _open(self, entry: Any) -> None:
        box = self.ids.results
        box.clear_widgets()
        box.add_widget(label(f"[b]{entry.title}[/b]"))
        box.add_widget(label(entry.text))
        box.add_widget(label(f"Source: {entry.source}", muted=True))
        box.add_widget(button("Back to results", "hit_back", lambda: self.search(self.ids.query.text), flat=True))


class SettingsScreen(Screen):
    pass


class CasebookApp(App):
    colors = DictProperty(THEMES["light"])
    fs = NumericProperty(1.0)
    dark = BooleanProperty(False)
    keep_awake = BooleanProperty(True)
    title = "Casebook"

    def build(self) -> ScreenManager:
        data = Path(os.environ.get("CASEBOOK_DATA") or self.user_data_dir)
        self.data_dir = data
        self.store = Store(data / "games")
        self.dbs: dict[str, GameDatabase] = {gid: load_database(gid) for gid in TABLES}
        self.index = RulesIndex.build(list(self.dbs.values()))
        self.session: Session | None = None
        self.table: Any = None  # the current game's GameTable
        self._history: list[str] = []
        self._load_settings()
        Builder.load_file(str(HERE / "widgets.kv"))
        for name in ("start", "newgame", "table", "history", "rules", "settings"):
            Builder.load_file(str(HERE / "kv" / f"{name}.kv"))
        sm = ScreenManager(transition=NoTransition())
        for screen in (StartScreen(), NewGameScreen(), TableScreen(), HistoryScreen(), RulesScreen(), SettingsScreen()):
            sm.add_widget(screen)
        self.sm = sm  # the start screen lists the saved games (and any recovery) as it is entered
        return sm

    def on_start(self) -> None:
        script = os.environ.get("CASEBOOK_SCRIPT")
        if script:
            from companion.driver import Driver

            self.driver = Driver(self, Path(script))  # the Clock holds callbacks weakly
            self.driver.start()

    # --- navigation ---------------------------------------------------------------------------

    def go(self, name: str) -> None:
        self._history.append(self.sm.current)
        self.sm.current = name

    def back(self) -> None:
        self.sm.current = self._history.pop() if self._history else "start"

    def open_rules(self, query: str) -> None:
        screen = self.sm.get_screen("rules")
        self.go("rules")
        screen.ids.query.text = query
        screen.search(query)

    # --- games --------------------------------------------------------------------------------

    def rules_game(self) -> str | None:
        """The game whose rules the lookup searches: the game at the table, or the one being set up."""
        if self.sm.current == "new" or self._history[-1:] == ["new"]:
            return str(self.sm.get_screen("new").game)
        return self.session.log.game if self.session is not None else None

    def is_finished(self, log: GameLog) -> bool:
        try:
            return Session(self.dbs[log.game], log).is_over
        except Exception:  # an unreadable log is listed by the store's own warning
            return False

    def start_session(self, log: GameLog) -> str | None:
        from rules.engine import IllegalAction

        try:
            self.session = Session.new(self.dbs[log.game], log, self.store)
        except IllegalAction as exc:
            return str(exc)
        self.table = table_module(log.game).Table(self, self.sm.get_screen("table"), self.session)
        self.sm.get_screen("table").viewer = -1
        self.go("table")
        return None

    def resume(self, game_id: str, game: str) -> None:
        """Resume a saved game of `game` (the start screen's listing read its log)."""
        from rules.engine import IllegalAction

        try:
            if game not in self.dbs:
                raise IllegalAction(f"{game_id}: not a game this app knows ({game})")
            self.session = Session.resume(self.dbs[game], self.store, game_id)
        except IllegalAction as exc:
            self.sm.get_screen("start").ids.notice.text = str(exc)
            return
        self.table = table_module(game).Table(self, self.sm.get_screen("table"), self.session)
        table = self.sm.get_screen("table")
        table.viewer = -1
        self.go("table")
        if self.session.warning:
            table.ids.message.text = self.session.warning

    # --- settings -----------------------------------------------------------------------------

    def _load_settings(self) -> None:
        path = self.data_dir / "settings.json"
        try:
            values = json.loads(path.read_text()) if path.exists() else {}
        except (OSError, ValueError):
            values = {}
        self.settings = {"keep_awake": True, "dark": False, "large_text": False, **values}
        self._apply_settings()

    def _apply_settings(self) -> None:
        self.keep_awake = bool(self.settings["keep_awake"])
        self.dark = bool(self.settings["dark"])
        self.colors = THEMES["dark" if self.dark else "light"]
        self.fs = 1.25 if self.settings["large_text"] else 1.0
        Window.allow_screensaver = not self.keep_awake
        Window.clearcolor = rgba(self.colors["bg"])

    def set_option(self, key: str, value: bool) -> None:
        self.settings[key] = bool(value)
        self._apply_settings()
        tmp = self.data_dir / "settings.json.tmp"
        tmp.write_text(json.dumps(self.settings))
        os.replace(tmp, self.data_dir / "settings.json")
        current = self.sm.current_screen
        if hasattr(current, "refresh"):
            current.refresh()


def main() -> int:
    CasebookApp().run()
    return 0
