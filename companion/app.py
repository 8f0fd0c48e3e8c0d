"""The Casebook companion (Kivy): start, new game, table, history, rules, settings.

Layout lives in companion/kv/*.kv (one file a screen); the game logic in plain classes
(Session, Store, GravesPad) that tests drive without a window. Every tap that changes the
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
from kivy.metrics import dp, sp  # noqa: E402
from kivy.properties import BooleanProperty, DictProperty, NumericProperty, StringProperty  # noqa: E402
from kivy.uix.boxlayout import BoxLayout  # noqa: E402
from kivy.uix.button import Button  # noqa: E402
from kivy.uix.gridlayout import GridLayout  # noqa: E402
from kivy.uix.image import Image  # noqa: E402
from kivy.uix.label import Label  # noqa: E402
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager  # noqa: E402

from companion.graves_pad import RANKS, GravesPad  # noqa: E402
from companion.session import Session  # noqa: E402
from companion.store import Store  # noqa: E402
from companion.theme import PLAYER_COLOURS, THEMES, rgba  # noqa: E402
from rules.cards import load_database  # noqa: E402
from rules.log import GameLog  # noqa: E402
from rules.search import RulesIndex  # noqa: E402

HERE = Path(__file__).resolve().parent
SYMBOLS = HERE / "assets" / "symbols"
VARIANT_NAMES = {"knows_all": "The Mastermind Knows All", "single_case": "The Single Case",
                 "long_haul": "The Long Haul (4 cases)", "life_is_pain": "Life Is Pain"}


class CButton(Button):
    testid = StringProperty("")
    flat = BooleanProperty(False)


class Tile(Button):
    """A location in the strip: fixed height, whatever its text."""

    testid = StringProperty("")
    flat = BooleanProperty(False)


class CLabel(Label):
    muted = BooleanProperty(False)


def button(text: str, testid: str, action: Any, flat: bool = False, **kw: Any) -> CButton:
    b = CButton(text=text, testid=testid, flat=flat, **kw)
    b.bind(on_release=lambda *_: action())
    return b


def label(text: str, **kw: Any) -> CLabel:
    return CLabel(text=text, **kw)


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
            box.add_widget(button(f"Graves: {' v '.join(g.players)}\n{when} · {status}", f"resume_{g.id}",
                                  lambda gid=g.id: app.resume(gid)))


class NewGameScreen(Screen):
    colours = DictProperty({"p1": "blue", "p2": "vermillion"})
    variants = DictProperty({})

    def on_pre_enter(self, *args: Any) -> None:
        self.ids.error.text = ""
        if not self.ids.seed.text:
            self.ids.seed.text = str(int(time.time()) % 10000)
        self._colours()
        grid = self.ids.variants
        grid.clear_widgets()
        for vid, name in VARIANT_NAMES.items():
            grid.add_widget(button(("[x] " if self.variants.get(vid) else "[  ] ") + name, f"variant_{vid}",
                                   lambda v=vid: self._toggle(v), flat=not self.variants.get(vid)))

    def _toggle(self, vid: str) -> None:
        self.variants[vid] = not self.variants.get(vid)
        if vid == "single_case" and self.variants[vid]:
            self.variants["long_haul"] = False
        if vid == "long_haul" and self.variants[vid]:
            self.variants["single_case"] = False
        self.on_pre_enter()

    def _colours(self) -> None:
        for slot in ("p1", "p2"):
            box = self.ids["c1" if slot == "p1" else "c2"]
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
        names = [self.ids.p1.text.strip(), self.ids.p2.text.strip()]
        variants = [v for v, on in self.variants.items() if on]
        seed = int(self.ids.seed.text) if self.ids.seed.text.strip() else int(time.time()) % 10000
        setup: dict[str, Any] = {"detective": names[0], "colours": [self.colours["p1"], self.colours["p2"]]}
        if "long_haul" in variants:
            setup["cases"] = 4
        log = GameLog("graves", app.db.rules_version, names, variants, seed, setup,
                      created=time.strftime("%Y-%m-%dT%H:%M:%S"))
        error = app.start_session(log)
        self.ids.error.text = error or ""


class TableScreen(Screen):
    viewer = NumericProperty(-1)  # -1: nobody's secrets shown; else the player holding the phone

    def on_pre_enter(self, *args: Any) -> None:
        self.refresh()

    def undo(self) -> None:
        app = App.get_running_app()
        if app.session and app.session.undo():
            app.pad.clear()
            self.ids.message.text = "Undone."
        self.refresh()

    def _then(self, fn: Any, *args: Any) -> None:
        """Run a pad change, then redraw."""
        fn(*args)
        self.refresh()

    def _do(self, outcome: Any) -> None:
        self.ids.message.text = "" if outcome.ok else outcome.message
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        session, pad = app.session, app.pad
        if session is None:
            return
        s = session.summary(self.viewer if self.viewer >= 0 else None)
        players = s["players"]
        case = s["case"]
        pts = s["result"]["scores"]
        role = {case["detective"]: "Detective", case["mastermind"]: "Mastermind"}
        self.ids.scoreline.text = (f"Case {case['number']}/{s['cases_total']} · "
                                   + " · ".join(f"{p} ({role[p]}) {pts[p]}" for p in players))
        body = self.ids.body
        body.clear_widgets()
        body.add_widget(self._strip(s))
        if s["phase"] == "play":
            body.add_widget(self._active(s))
            body.add_widget(self._pad(s, pad))
        elif s["phase"] in ("unmasking", "identity"):
            body.add_widget(self._unmasking(s, pad))
        elif s["phase"] == "deal":
            body.add_widget(label("Deal a new row: the app deals it from the seed when one is set."))
        else:
            body.add_widget(self._over(s))
        body.add_widget(self._viewer_row(s))
        if pad.message:
            self.ids.message.text = pad.message

    def _strip(self, s: dict[str, Any]) -> GridLayout:
        """The five locations: short name, trump symbol (starred when changed), time or result."""
        app = App.get_running_app()
        grid = GridLayout(cols=5, size_hint_y=None, height=dp(104), spacing=dp(3))
        for i, loc in enumerate(s["locations"]):
            if loc["resolved"]:
                status = f"{loc['winner']}" if loc["winner"] else "tie"
            else:
                status = f"{loc['time']}/{loc['clocks']} time"
            short = loc["name"].replace("The ", "").replace("Bank ", "")
            star = "*" if loc["trump"] != loc["printed_trump"] else ""
            b = Tile(text=short, testid=f"loc_{i}", flat=not loc["active"],
                     font_size=app.fs * sp(12), bold=bool(loc["active"]))
            b.bind(on_release=lambda *_, name=loc["name"]: app.open_rules(name.replace("The ", "")))
            if loc["trump"]:
                suit = app.db.suits[loc["trump"]]
                img = Image(source=str(SYMBOLS / f"{suit.symbol}.png"), color=rgba(suit.colour), fit_mode="contain",
                            size_hint=(None, None), size=(dp(26), dp(26)))
                b.bind(pos=lambda w, *_a, im=img: setattr(im, "center", (w.center_x, w.y + dp(46))))
                b.add_widget(img)
            foot = Label(text=f"{status}{star}", font_size=app.fs * sp(12), color=rgba(app.colors["text"]),
                         size_hint=(None, None), size=(dp(64), dp(22)), bold=bool(loc["active"]))
            b.bind(pos=lambda w, *_a, lb=foot: setattr(lb, "center", (w.center_x, w.y + dp(14))))
            b.add_widget(foot)
            grid.add_widget(b)
        return grid

    def _active(self, s: dict[str, Any]) -> BoxLayout:
        app = App.get_running_app()
        loc = s["locations"][s["active"]]
        box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(2))
        box.bind(minimum_height=box.setter("height"))
        trump = app.db.suits[loc["trump"]].plural if loc["trump"] else "none"
        changed = " (changed)" if loc["trump"] != loc["printed_trump"] else ""
        box.add_widget(label(f"[b]{loc['name']}[/b] · trump {trump}{changed} · {loc['time']} time token(s) left"))
        box.add_widget(label(f"Turn {s['turn']} · lead {s['lead']} · [b]{s['to_act']} to act[/b]"
                             + (" · 1 pass" if s["passes_in_a_row"] else "")))
        for p in s["players"]:
            cards = ", ".join(loc["piles"][p]) or "no cards"
            box.add_widget(label(f"{p}: {cards} = [b]{loc['totals'][p]}[/b]"))
        return box

    def _pad(self, s: dict[str, Any], pad: GravesPad) -> BoxLayout:
        app = App.get_running_app()
        box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(4))
        box.bind(minimum_height=box.setter("height"))
        ranks = GridLayout(cols=5, size_hint_y=None, spacing=dp(3))
        ranks.bind(minimum_height=ranks.setter("height"))
        for r in RANKS:
            ranks.add_widget(button(r, f"rank_{r}", lambda r=r: self._then(pad.tap_rank, r),
                                    flat=pad.rank != r))
        box.add_widget(ranks)
        suits = GridLayout(cols=5, size_hint_y=None, height=dp(64), spacing=dp(3))
        for sid, suit in app.db.suits.items():
            cell = CButton(testid=f"suit_{sid}", text="", height=dp(64), flat=True)
            cell.bind(on_release=lambda *_, sid=sid: self._then(pad.tap_suit, sid))
            img = Image(source=str(SYMBOLS / f"{suit.symbol}.png"), color=rgba(suit.colour), fit_mode="contain")
            cell.bind(pos=lambda w, *_a, im=img: setattr(im, "pos", (w.x + dp(6), w.y + dp(6))))
            cell.bind(size=lambda w, *_a, im=img: setattr(im, "size", (w.width - dp(12), w.height - dp(12))))
            cell.add_widget(img)
            suits.add_widget(cell)
        box.add_widget(suits)
        box.add_widget(label(" · ".join(s.name for s in app.db.suits.values()), muted=True, font_size=app.fs * sp(11)))
        total = pad.preview_total()
        box.add_widget(label(pad.selection_text() + (f" (pile would total {total})" if pad.cards else "")))
        row = GridLayout(cols=3, size_hint_y=None, spacing=dp(3))
        row.bind(minimum_height=row.setter("height"))
        row.add_widget(button("Play", "play", lambda: self._do(pad.play())))
        row.add_widget(button("Pass", "pass", lambda: self._do(pad.pass_turn())))
        row.add_widget(button("Clear", "clear", lambda: self._then(pad.clear), flat=True))
        if any(c[0] == "2" for c in pad.cards):
            row.add_widget(button(("[x] " if pad.change_trump else "[  ] ") + "Deuce: new trump", "deuce",
                                  lambda: self._then(setattr, pad, "change_trump", not pad.change_trump),
                                  flat=not pad.change_trump))
        if app.session.state.location.kind == "park_discard":
            row.add_widget(button(f"Park discards: {pad.discards} (+)", "park_plus",
                                  lambda: self._then(setattr, pad, "discards", pad.discards + 1), flat=True))
            row.add_widget(button("(-)", "park_minus",
                                  lambda: self._then(setattr, pad, "discards", max(0, pad.discards - 1)), flat=True))
        row.add_widget(button("Ability...", "ability", self._abilities, flat=True))
        box.add_widget(row)
        return box

    def _abilities(self) -> None:
        app = App.get_running_app()
        pad = app.pad
        body = self.ids.body
        body.clear_widgets()
        body.add_widget(label("[b]Discard a card for its ability[/b] (then end the turn with Play)"))
        for card, text, kind in pad.abilities():
            rank, suit = card.split(" ", 1)
            title = f"{rank} {app.db.suits[suit].name}: {text}"
            if kind in ("discard_from_opponent_pile", "take_back"):
                targets = pad.ability_targets(kind)
                body.add_widget(label(title))
                for t in targets:
                    r, su = t.split(" ", 1)
                    body.add_widget(button(f"  on {r} {app.db.suits[su].name}", f"ab_{card}_{t}".replace(" ", "_"),
                                           lambda c=card, t=t: self._do(pad.use_ability(c, t)), flat=True))
                if not targets:
                    body.add_widget(label("  (no card to take)", muted=True))
            else:
                body.add_widget(button(title, f"ab_{card}".replace(" ", "_"), lambda c=card: self._do(pad.use_ability(c)),
                                       flat=True))
        body.add_widget(button("Back", "ability_back", self.refresh))

    def _unmasking(self, s: dict[str, Any], pad: GravesPad) -> BoxLayout:
        box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(4))
        box.bind(minimum_height=box.setter("height"))
        case = s["case"]
        ev = case["evidence_won"]
        box.add_widget(label("[b]The unmasking[/b] · evidence won: " + ", ".join(f"{p} {n}" for p, n in ev.items())))
        if s["phase"] == "identity":
            box.add_widget(label(f"{case['mastermind']}, Mastermind: who were you?"))
            for iid, name in pad.identities():
                box.add_widget(button(name, f"identity_{iid}", lambda i=iid: self._do(pad.set_identity(i)), flat=True))
            return box
        if "possible_masterminds" in case:
            names = {c.id: c["name"] for c in App.get_running_app().db.components["identities"].cards}
            box.add_widget(label("Still possible by your evidence: "
                                 + ", ".join(names[i] for i in case["possible_masterminds"]), muted=True))
        if s["variants"] == [] or not set(s["variants"]) & {"knows_all", "single_case"}:
            box.add_widget(button(f"{case['mastermind']} reveals early (Detective +2)", "reveal",
                                  lambda: self._do(pad.reveal())))
        box.add_widget(label(f"{case['detective']}, Detective: name the Mastermind"))
        for iid, name in pad.identities():
            box.add_widget(button(name, f"guess_{iid}", lambda i=iid: self._do(pad.guess(i)), flat=True))
        return box

    def _over(self, s: dict[str, Any]) -> BoxLayout:
        box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(4))
        box.bind(minimum_height=box.setter("height"))
        res = s["result"]
        head = f"{res['winner']} wins ({res['decided_by']})" if res["winner"] else "A draw"
        box.add_widget(label(f"[b]Game over: {head}[/b]"))
        for c in s["cases_done"]:
            box.add_widget(label(f"Case {c['number']}: " + ", ".join(f"{p} {v}" for p, v in c["points"].items())
                                 + (f" · Mastermind was {c['identity']}" if c["identity"] else "")))
        return box

    def _viewer_row(self, s: dict[str, Any]) -> BoxLayout:
        app = App.get_running_app()
        row = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(3))
        case = s["case"]
        me = app.session.state.case
        if self.viewer < 0:
            row.add_widget(button(f"Detective ({case['detective']}): notes", "view_det",
                                  lambda: self._set_viewer(me.detective), flat=True))
            row.add_widget(button(f"Mastermind ({case['mastermind']}): secret", "view_mm",
                                  lambda: self._set_viewer(me.mastermind), flat=True))
        else:
            who = app.session.state.players[self.viewer]
            ident = case.get("identity")
            text = f"{who}'s view" + (f": you are {ident}" if ident and self.viewer == me.mastermind else "")
            row.add_widget(button(text + " (hide)", "view_hide", lambda: self._set_viewer(-1), flat=True))
            if self.viewer == me.mastermind and not ident:
                row.add_widget(button("Set identity", "set_identity", self._identity_picker, flat=True))
            if self.viewer == me.detective:
                row.add_widget(button("Note evidence", "note_evidence", self._evidence_picker, flat=True))
        if self.viewer == me.detective and "possible_masterminds" in case:
            names = {c.id: c["name"] for c in app.db.components["identities"].cards}
            box = BoxLayout(orientation="vertical", size_hint_y=None)
            box.bind(minimum_height=box.setter("height"))
            box.add_widget(row)
            noted = len(case["evidence_noted"].get(case["detective"], []))
            box.add_widget(label(f"Still possible ({noted} evidence noted): "
                                 + ", ".join(names[i] for i in case["possible_masterminds"]), muted=True))
            return box
        return row

    def _evidence_picker(self) -> None:
        """The Detective notes which evidence card they won: the deduction helper narrows the suspects."""
        app = App.get_running_app()
        names = {c.id: c["name"] for c in app.db.components["identities"].cards}
        who = app.session.state.players[app.session.state.case.detective]
        body = self.ids.body
        body.clear_widgets()
        body.add_widget(label(f"{who}: which evidence card did you win? (viable suspects shown)"))
        for card in app.db.components["evidence"].cards:
            text = ", ".join(names[i].split()[-1] for i in card["viable"])
            body.add_widget(button(text, f"evidence_{card.id}", lambda cid=card.id, w=who: self._do(
                app.session.do({"action": "note_evidence", "by": w, "evidence": cid})), flat=True))
        body.add_widget(button("Back", "evidence_back", self.refresh))

    def _identity_picker(self) -> None:
        app = App.get_running_app()
        body = self.ids.body
        body.clear_widgets()
        body.add_widget(label("Mastermind only: which identity card did you draw?"))
        for iid, name in app.pad.identities():
            body.add_widget(button(name, f"identity_{iid}", lambda i=iid: self._do(app.pad.set_identity(i)), flat=True))
        body.add_widget(button("Back", "identity_back", self.refresh))

    def _set_viewer(self, who: int) -> None:
        self.viewer = who
        self.refresh()


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
        hits = app.index.search(text, game="graves", limit=8)
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
        self.db = load_database("graves")
        self.index = RulesIndex.build([self.db])
        self.session: Session | None = None
        self.pad: GravesPad | None = None
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

    def is_finished(self, log: GameLog) -> bool:
        try:
            return Session(self.db, log).is_over
        except Exception:  # an unreadable log is listed by the store's own warning
            return False

    def start_session(self, log: GameLog) -> str | None:
        from rules.engine import IllegalAction

        try:
            self.session = Session.new(self.db, log, self.store)
        except IllegalAction as exc:
            return str(exc)
        self.pad = GravesPad(self.session)
        self.sm.get_screen("table").viewer = -1
        self.go("table")
        return None

    def resume(self, game_id: str) -> None:
        from rules.engine import IllegalAction

        try:
            self.session = Session.resume(self.db, self.store, game_id)
        except IllegalAction as exc:
            self.sm.get_screen("start").ids.notice.text = str(exc)
            return
        self.pad = GravesPad(self.session)
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
