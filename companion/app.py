"""The Casebook companion (Kivy): start, new game, table, history, rules, settings.

Layout lives in companion/kv/*.kv (one file a screen); the game logic in plain classes
(Session, Store, each game's pad) that tests drive without a window. Each game's table is a
module of companion/tables/. Every tap that changes the
game is an event of the rules core, saved before the screen updates.
"""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

os.environ.setdefault("KIVY_NO_ARGS", "1")

from casebook.companion import quiet  # noqa: E402

quiet.install()  # before Kivy opens its window: no alarming lines for absent providers

from kivy.app import App  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.lang import Builder  # noqa: E402
from kivy.metrics import dp  # noqa: E402
from kivy.properties import BooleanProperty, DictProperty, NumericProperty, StringProperty  # noqa: E402
from kivy.uix.gridlayout import GridLayout  # noqa: E402
from kivy.uix.modalview import ModalView  # noqa: E402
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager  # noqa: E402

from casebook.companion.screens import (  # noqa: E402,E501
    HistoryScreen,
    NewGameScreen,
    RulesScreen,
    SettingsScreen,
    StartScreen,
)
from casebook.companion.store import Store  # noqa: E402
from casebook.companion.tables import TABLES, GameDatabases, GameTitles, table_module  # noqa: E402
from casebook.companion.theme import PLAYER_COLOURS, THEMES, rgba  # noqa: E402
from casebook.companion.widgets import SecretButton, SecretView, button, colour_bar, confirm  # noqa: E402

if TYPE_CHECKING:
    from casebook.companion.progress import StandingCache
    from casebook.companion.session import Session
    from casebook.rules.log import GameLog
    from casebook.rules.search import RulesIndex

# What the start screen does not show is read when first needed, not before it is up (benchmarks/app.py,
# tests/companion/test_lazy_start.py): every game's engine and card database, the rules search index, each
# game's table, and the kv of every screen but the start screen.

HERE = Path(__file__).resolve().parent
WARM_UP_AFTER = 0.5  # seconds after the start: then what the first taps need is read, a piece a frame


class Screens(ScreenManager):
    """The screens, each made (and its kv file read) the first time it is asked for: the start screen at once,
    the others on first use. get_screen, and so `current`, make a screen that is not made yet."""

    KINDS: dict[str, tuple[str, Callable[[], Screen]]] = {}  # name -> (kv file, class); filled below

    def make(self, name: str) -> Screen:
        kv, kind = self.KINDS[name]
        Builder.load_file(str(HERE / "kv" / f"{kv}.kv"))
        screen = kind()
        self.add_widget(screen)
        return screen

    def get_screen(self, name: str) -> Screen:
        if name in self.KINDS and not self.is_made(name):
            return self.make(name)
        return super().get_screen(name)

    def has_screen(self, name: str) -> bool:
        return name in self.KINDS or super().has_screen(name)

    def is_made(self, name: str) -> bool:
        return any(s.name == name for s in self.screens)


class TableScreen(Screen):
    """The frame of every game's table: a score line, the state (scrolling), the input pad, a message slot
    and an action bar (fixed, always in reach), the nav bar. Secrets show only in a SecretView."""

    viewer = NumericProperty(-1)  # kept for callers: the table itself is always nobody's view
    message_kind = StringProperty("info")  # "error" (a refusal) or "info" (Undone., hints, notices)
    page_open = BooleanProperty(False)  # a picker (abilities, identity...) fills the body
    fold_actions = BooleanProperty(False)  # the table's choice: an action bar with no button takes no room

    def on_pre_enter(self, *args: Any) -> None:
        # back at the table, a message belongs to the moment it was said: "Undone." and hints go stale; a refusal
        # stays (its rule looked up meanwhile) unless the game changed elsewhere (another game, History's Redo)
        if self._moment() != getattr(self, "_left_at", None) or self.message_kind != "error":
            self.say("")
        self.refresh()

    def on_pre_leave(self, *args: Any) -> None:
        App.get_running_app().keep_standing()  # before the start screen lists it

    def on_leave(self, *args: Any) -> None:
        SecretView.close_all()
        self._left_at = self._moment()

    @staticmethod
    def _moment() -> Any:
        """The game on the table and how far it has gone."""
        app = App.get_running_app()
        return app.table, app.session and (len(app.session.log.events), len(app.session.redo_stack))

    @property
    def landscape(self) -> bool:
        """Side by side (state left, input right): the same test as table.kv's."""
        return bool(self.width > self.height * 1.1)

    def on_size(self, *args: Any) -> None:
        if getattr(self, "_was_landscape", None) != self.landscape:  # turned: a game may place parts anew
            self._was_landscape = self.landscape
            if self.manager is not None and self.manager.current == self.name:
                self.refresh()

    def say(self, text: str, kind: str = "info") -> None:
        self.message_kind = kind
        self.ids.message.text = text

    def undo(self) -> None:
        app = App.get_running_app()
        SecretView.close_all()
        if app.session and app.session.undo():
            app.table.clear()
            self.say("Undone.")
        elif app.session and app.session.locked:
            self.refresh()
            self.say(app.session.locked_reason(), "error")  # after the redraw, which may fill the slot itself
            return
        else:
            self.say("Nothing to undo.")
        self.refresh()

    def then(self, fn: Any, *args: Any) -> None:
        """Run a change to the half-entered action, then redraw (a new tap clears the last message)."""
        self.say("")
        fn(*args)
        self.refresh()

    def do(self, outcome: Any) -> None:
        """Show an event's outcome: a refusal's rule in the message slot, else close any secret and redraw."""
        if outcome.ok:
            SecretView.close_all()
            self.say("")
        self.refresh()
        if not outcome.ok:
            self.say(outcome.message, "error")

    def start_page(self, on_cancel: Callable[[], Any] | None = None) -> Any:
        """An empty body for a picker the table shows instead of itself. However long its list, a Cancel waits in
        the fixed action bar and does what Back does: `on_cancel` (what the page clears of a half-made choice),
        then the table redrawn as it was."""
        for box in ("body", "pad", "actions"):
            self.ids[box].clear_widgets()
        self.page_open = True
        self._page_cancel = on_cancel
        self.ids.actions.add_widget(button("Cancel", "page_cancel", self.back, flat=True))
        self.ids.scroll.scroll_y = 1
        return self.ids.body

    def back(self) -> bool:
        """Back on the table: close a picker, else clear a half-entered action; False if there was neither."""
        app = App.get_running_app()
        if self.page_open:
            cancel, self._page_cancel = getattr(self, "_page_cancel", None), None
            if cancel is not None:
                cancel()
            self.refresh()
            return True
        if app.table is not None and (app.table.has_draft() or self.ids.message.text):
            app.table.clear()
            self.say("")
            self.refresh()
            return True
        return False

    def refresh(self) -> None:
        app = App.get_running_app()
        if app.session is None or app.table is None:
            return
        table = app.table
        s = app.session.summary(None)
        self.ids.scoreline.text = table.scoreline(s)
        self.page_open = False
        self.fold_actions = bool(getattr(table, "fold_actions", False))
        body, pad, actions = self.ids.body, self.ids.pad, self.ids.actions
        for box in (body, pad, actions):
            box.clear_widgets()
        for widget in table.widgets(s):
            body.add_widget(widget)
        secrets = table.secrets(s)
        extra = table.secret_actions(s)
        if secrets or extra:  # each player's own: "Ben: hold to see", "Ben: set your identity"
            row = GridLayout(cols=getattr(table, "secrets_cols", 2), size_hint_y=None, spacing=dp(3))
            row.bind(minimum_height=row.setter("height"))
            colours = app.session.log.setup.get("colours") or []
            palette = {**PLAYER_COLOURS, **table_module(app.session.log.game).NEW_GAME.palette}
            for player in secrets:
                n = s["players"].index(player)
                held = SecretButton(player, partial(self._secret, player), self._secrets,
                                    partial(self._secret_pictures, player), testid=f"secret_{n}")
                if n < len(colours) and colours[n] in palette:
                    colour_bar(held, palette[colours[n]], side="left", thick=8)
                row.add_widget(held)
            for widget in extra:
                row.add_widget(widget)
            after = table.secrets_after
            box = pad if getattr(table, "secrets_in_pad", False) else body  # in the fixed pad: never scrolled away
            box.add_widget(row, index=0 if after is None else max(0, len(box.children) - after))
        for widget in table.pad_widgets(s):
            pad.add_widget(widget)
        for widget in table.actions(s):
            actions.add_widget(widget)
        if table.message:
            self.say(table.message)

    def _secrets(self) -> list[str]:
        """Every secret the table shows now: a secret's box is sized to the tallest, so its shape gives
        nothing away."""
        app = App.get_running_app()
        return list(app.table.secrets(app.session.summary(None)).values())

    def _secret_pictures(self, player: str) -> tuple[list[str], bool]:
        """The player's secret pictures as they are now, and whether any secret of the table has some."""
        app = App.get_running_app()
        pictures = app.table.secret_pictures(app.session.summary(None))
        return list(pictures.get(player, [])), any(pictures.values())

    def _secret(self, player: str) -> str:
        """The player's secret as it is now (read when the button is held, not when it was drawn)."""
        app = App.get_running_app()
        return str(app.table.secrets(app.session.summary(None)).get(player, "Nothing secret now."))


class CasebookApp(App):
    colors = DictProperty(THEMES["light"])
    fs = NumericProperty(1.0)
    dark = BooleanProperty(False)
    keep_awake = BooleanProperty(True)
    title = "Casebook"

    def build(self) -> ScreenManager:
        data = self._data_folder()
        self.data_dir = data
        self.dbs = GameDatabases(list(TABLES))  # each read on first use
        self.titles = GameTitles(self.dbs)
        self.store = Store(data / "games")
        self.store.titles = self.titles  # for its damage notices
        self._index: RulesIndex | None = None
        self._standings: StandingCache | None = None
        self.session: Session | None = None
        self.table: Any = None  # the current game's GameTable
        self._history: list[str] = []
        self._load_settings()
        Builder.load_file(str(HERE / "widgets.kv"))
        sm = Screens(transition=NoTransition())
        sm.make("start")  # the others, and their kv, on first use
        self.sm = sm  # the start screen lists the saved games (and any recovery) as it is entered
        return sm

    @property
    def standings(self) -> StandingCache:
        """Each saved game's standing as last worked out: the start screen lists saved games from it."""
        if self._standings is None:
            from casebook.companion.progress import StandingCache

            self._standings = StandingCache(self.data_dir / "standings.json")
        return self._standings

    @property
    def index(self) -> RulesIndex:
        """The rules search over every game, built the first time the rules are looked up."""
        if self._index is None:
            from casebook.rules.search import RulesIndex

            self._index = RulesIndex.build(list(self.dbs.values()))
        return self._index

    def _data_folder(self) -> Path:
        """Where saves and settings live: $CASEBOOK_DATA, else the platform's app folder, made if missing
        (Kivy makes only the last level, so a fresh home without ~/.config would stop the app)."""
        if os.environ.get("CASEBOOK_DATA"):
            folder = Path(os.environ["CASEBOOK_DATA"])
        else:
            from kivy.utils import platform
            if platform not in ("android", "ios", "win", "macosx"):
                config = Path(os.environ.get("XDG_CONFIG_HOME") or "~/.config").expanduser()
                try:
                    config.mkdir(parents=True, exist_ok=True)
                except OSError as err:
                    raise SystemExit(f"casebook: cannot make {config} for the saved games ({err.strerror}); "
                                     "set CASEBOOK_DATA to a folder you can write") from None
            folder = Path(self.user_data_dir)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise SystemExit(f"casebook: cannot make {folder} for the saved games ({err.strerror}); "
                             "set CASEBOOK_DATA to a folder you can write") from None
        return folder

    def on_start(self) -> None:
        Window.bind(on_keyboard=self._on_key, on_minimize=self._hide_secrets, on_hide=self._hide_secrets)
        script = os.environ.get("CASEBOOK_SCRIPT")
        if script:
            from casebook.companion.driver import Driver

            self.driver = Driver(self, Path(script))  # the Clock holds callbacks weakly
            self.driver.start()
        if os.environ.get("CASEBOOK_WARM_UP", "1") != "0":  # off only for tests of what a start reads
            self._warm_jobs = self._warm_up_jobs()
            Clock.schedule_once(self._warm_up, WARM_UP_AFTER)

    def _warm_up_jobs(self) -> Iterator[Callable[[], Any]]:
        """What the first taps will need, in the order they need it: the engines and logs, the titles, the new-game
        and table screens, each game's table and card database, last the rules index (the longest piece)."""
        yield partial(importlib.import_module, "casebook.companion.session")
        yield partial(dict, self.titles)
        yield partial(self.sm.get_screen, "new")
        yield partial(self.sm.get_screen, "table")
        for game in TABLES:
            yield partial(table_module, game)
            yield partial(self.dbs.__getitem__, game)
        yield partial(getattr, self, "index")

    def _warm_up(self, _dt: float = 0) -> None:
        """One piece of the warm-up a frame, while the players read the start screen: a tap waits at most for one
        piece. A piece that fails ends it; the same step fails again, and is told, when a tap needs it."""
        job = next(self._warm_jobs, None)
        if job is None:
            return
        try:
            job()
        except Exception:  # noqa: BLE001 - told where it is used
            return
        Clock.schedule_once(self._warm_up, 0)

    # --- navigation ---------------------------------------------------------------------------

    def go(self, name: str) -> None:
        if name == "start":  # the root: Back from there leaves the app (after asking)
            self._history.clear()
        else:
            self._history.append(self.sm.current)
        self.sm.current = name

    def back(self) -> None:
        if self.sm.current == "table":  # a table goes back to the list of games, not to the set-up form
            self.go("start")
            return
        self.sm.current = self._history.pop() if self._history else "start"

    def keep_standing(self) -> None:
        """The game's standing written for the start screen (standings.json) when the table is left and when the app
        pauses or stops: the next start lists it without replaying, nor importing an engine. Not after each event:
        the log is saved then, and a standing missing or stale (the app killed) is worked out again from the log,
        which the start screen notices by the log's checksum."""
        session = self.session
        if session is None or not session.game_id or not self.store.path(session.game_id).exists():
            return  # no game, or the one last played was deleted since
        from casebook.companion.progress import standing_of

        self.standings.put(session.game_id, session.log, standing_of(session.state, session.log))
        self.standings.save()

    def on_pause(self) -> bool:
        """Going to the background closes any secret and writes the standing (the log is saved after every
        event)."""
        SecretView.close_all()
        self.keep_standing()
        return True

    def on_stop(self) -> None:
        self.keep_standing()

    def on_resume(self) -> None:
        SecretView.close_all()

    def _hide_secrets(self, *_args: Any) -> None:
        SecretView.close_all()

    def _on_key(self, _window: Any, key: int, *_args: Any) -> bool:
        if key != 27:  # Escape on a desktop, Back on Android
            return False
        self.back_pressed()
        return True  # never Kivy's own exit-on-escape

    def back_pressed(self) -> None:
        """Back: close what is open on top, else clear a half-entered action, else go back a screen;
        only the start screen leaves the app, and only after asking."""
        popups = [w for w in Window.children if isinstance(w, ModalView)]
        if popups:
            popups[0].dismiss(animation=False)
            return
        current = self.sm.current_screen
        if self.sm.current in ("table", "new") and current.back():  # a picker closes; the screen stays
            return
        if self.sm.current == "rules":
            opened = [w for w in current.ids.results.children if getattr(w, "testid", "") == "hit_back"]
            if opened:  # an entry is open: back to the results
                opened[0].dispatch("on_release")
                return
        if self.sm.current == "start":
            confirm("Leave Casebook? Every game is saved as it stands.", "Leave", self.stop, "leave")
            return
        self.back()

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
        from casebook.companion.session import Session

        try:
            return Session(self.dbs[log.game], log).is_over
        except Exception:  # an unreadable log is listed by the store's own warning
            return False

    def start_session(self, log: GameLog) -> str | None:
        from casebook.companion.session import Session
        from casebook.rules.engine import IllegalAction

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
        from casebook.companion.session import Session
        from casebook.rules.engine import IllegalAction

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


Screens.KINDS.update({"start": ("start", StartScreen), "new": ("newgame", NewGameScreen), "table": ("table", TableScreen),
                      "history": ("history", HistoryScreen), "rules": ("rules", RulesScreen),
                      "settings": ("settings", SettingsScreen)})
