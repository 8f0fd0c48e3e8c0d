"""The Casebook companion (Kivy): start, new game, table, history, rules, settings.

Layout lives in companion/kv/*.kv (one file a screen); the game logic in plain classes
(Session, Store, each game's pad) that tests drive without a window. Each game's table is a
module of companion/tables/. Every tap that changes the
game is an event of the rules core, saved before the screen updates.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

os.environ.setdefault("KIVY_NO_ARGS", "1")

from kivy.app import App  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.lang import Builder  # noqa: E402
from kivy.properties import BooleanProperty, DictProperty, NumericProperty  # noqa: E402
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager  # noqa: E402

from companion.screens import HistoryScreen, NewGameScreen, RulesScreen, SettingsScreen, StartScreen  # noqa: E402,E501
from companion.session import Session  # noqa: E402
from companion.store import Store  # noqa: E402
from companion.tables import TABLES, table_module  # noqa: E402
from companion.theme import THEMES, rgba  # noqa: E402
from rules.cards import GameDatabase, load_database  # noqa: E402
from rules.log import GameLog  # noqa: E402
from rules.search import RulesIndex  # noqa: E402

HERE = Path(__file__).resolve().parent


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
        self.store.titles = {gid: db.short_title for gid, db in self.dbs.items()}  # for its damage notices
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
        screen.game = self.rules_game() or ""
        self.go("rules")
        screen.ids.query.text = query
        screen.search(query)

    # --- games --------------------------------------------------------------------------------

    def rules_game(self) -> str | None:
        """The game in hand, whose rules the lookup searches first: at the table, or being set up; None: all."""
        if self.sm.current == "new":
            return str(self.sm.get_screen("new").game)
        if self.sm.current in ("table", "history") and self.session is not None:
            return self.session.log.game
        return None

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
