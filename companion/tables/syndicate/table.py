"""The Syndicate table: the three players with scores and roles, the four cards of a plot picked by
rank and suit, the totals and outcome before confirming, and the last plot's result."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from casebook.companion.tables.base import GameTable, NewGameSpec
from casebook.companion.tables.syndicate.pad import RANK_LABELS, RANKS, SLOTS, SyndicatePad
from casebook.companion.theme import PLAYER_COLOURS, rgba
from casebook.companion.widgets import FitLabel, Tile, button, colour_bar, label, symbol_button

NEW_GAME = NewGameSpec(
    players=3, names=["Ann", "Ben", "Cat"],
    players_note="Players in seating order, each on the left of the one before (the first plots first)")

OUTCOME_WORDS = {"succeeds": "succeeds", "foiled": "is foiled", "tie": "ties: nobody scores"}


class Table(GameTable):
    pad_class = SyndicatePad

    def scoreline(self, s: dict[str, Any]) -> str:
        if s["phase"] == "over":
            return f"Game over after {s['turn']} turns · first to 12"
        return f"Turn {s['turn']} · {s['mastermind']} is the mastermind · first to 12"

    def widgets(self, s: dict[str, Any]) -> list[Any]:
        out: list[Any] = [self._players(s)]
        if s["phase"] == "over":
            out.append(self._over(s))
        else:
            out.append(self._turn(s))
        if s["plots"]:
            out.append(self._last(s["plots"][-1]))
        if s["phase"] != "over" and self.screen.landscape:  # a short pad column: the slots go left
            out.insert(1, self._slots())
        self.message = self.pad.message
        return out

    def pad_widgets(self, s: dict[str, Any]) -> list[Any]:
        if s["phase"] == "over":
            return []
        if self.screen.landscape:  # the pad column holds ranks and suits alone: the preview takes the message slot
            self._in_message_slot(self._preview_text(s))
            return self._pad()
        return [self._slots(), *self._pad(), self._preview(s)]

    def actions(self, s: dict[str, Any]) -> list[Any]:
        if s["phase"] == "over":
            return []
        pad = self.pad
        return [button("Confirm plot", "confirm", lambda: self.screen.do(pad.confirm())),
                button("Clear", "clear", lambda: self.screen.then(pad.clear), flat=True)]

    def has_draft(self) -> bool:
        return bool(self.pad.picks or self.pad.rank)

    # --- parts -----------------------------------------------------------------------------------

    def _players(self, s: dict[str, Any]) -> GridLayout:
        """One tile a player: name, score, and their part in this turn."""
        app = self.app
        grid = GridLayout(cols=3, size_hint_y=None, height=dp(56), spacing=dp(3))
        roles = {}
        if s["phase"] != "over":
            roles = {s["mastermind"]: "mastermind", s["enforcers"][0]: "plays 1st", s["enforcers"][1]: "plays 2nd"}
        winner = s["result"].get("winner")
        colours = self.session.log.setup.get("colours") or []
        for i, p in enumerate(s["players"]):
            role = "winner" if p == winner else roles.get(p, "")
            hexcol = PLAYER_COLOURS.get(colours[i]) if i < len(colours) else None
            # name and score on one line, the part in this turn under it: short, so the last plot has room
            tile = Tile(text=f"[b]{p}[/b]  [size={int(app.fs * sp(20))}][b]{s['scores'][p]}[/b][/size]\n{role}",
                        testid=f"player_{i}", flat=p != s["mastermind"] and p != winner, markup=True,
                        font_size=app.fs * sp(14), height=dp(56))
            tile.bind(on_release=lambda *_: app.open_rules("mastermind enforcers left"))
            if hexcol:  # the player's colour chosen at set-up, as a bar along the tile's top
                colour_bar(tile, hexcol)
            grid.add_widget(tile)
        return grid

    def _turn(self, s: dict[str, Any]) -> BoxLayout:
        box = self._column()
        draw = s["next_draw"]
        line = (f"{s['mastermind']} draws {draw['cards']}" if draw["cards"]
                else f"{s['mastermind']} holds five" + ("" if s["turn"] > 1 else " (no draw on turn 1)"))
        box.add_widget(self._small(f"{line} · draw pile {s['draw_pile']} · discards {s['discard_pile']}"))
        return box  # a draw that empties the pile is told in the preview line, where the plot is entered

    def _small(self, text: str, muted: bool = True) -> Any:
        """A line of the state in 13 sp: it wraps, and with the player tiles it leaves the last plot in view."""
        line = label(text, muted=muted)
        line.font_size = self.app.fs * sp(13)  # after the kv rule's 15 sp, which a keyword would lose to
        return line

    def _slots(self) -> GridLayout:
        """The four cards of the plot: tap one to choose it, then tap rank and suit."""
        pad = self.pad
        grid = GridLayout(cols=2, size_hint_y=None, spacing=dp(3))
        grid.bind(minimum_height=grid.setter("height"))
        for slot in SLOTS:
            card = pad.card(slot)
            text = card.name if card else ("none" if slot == "face_down" else "?")
            counts = None if slot == "lead" else pad.counts(slot)  # the lead always counts: no note
            note = "" if counts is None else (" · counts" if counts else " · doesn't count")
            grid.add_widget(button(f"{pad.slot_title(slot)}{note}\n[b]{text}[/b]", f"slot_{slot}",
                                   lambda sl=slot: self.screen.then(pad.pick_slot, sl), flat=pad.slot != slot,
                                   markup=True, height=dp(56)))
        return grid

    def _pad(self) -> list[Any]:
        """Ranks, then suits; once a rank is tapped, its cards in the discard pile are greyed out."""
        pad, db = self.pad, self.session.db
        ranks = GridLayout(cols=5, size_hint_y=None, spacing=dp(3))
        ranks.bind(minimum_height=ranks.setter("height"))
        for r in RANKS:
            ranks.add_widget(button(RANK_LABELS.get(r, r), f"rank_{r}", lambda r=r: self.screen.then(pad.tap_rank, r),
                                    flat=pad.rank != r))
        suits = GridLayout(cols=6, size_hint_y=None, height=dp(56), spacing=dp(3))
        greyed = pad.greyed()  # the cards the slot's player cannot play: tapped, a greyed suit says why
        for sid, suit in db.suits.items():
            key = symbol_button(f"suit_{sid}", suit.symbol, suit.colour,
                                lambda sid=sid: self.screen.then(pad.tap_suit, sid), height=56,
                                disabled=sid in greyed, caption=suit.name)
            key.bind(on_touch_down=lambda w, touch, sid=sid: self._why_greyed(w, touch, sid))
            suits.add_widget(key)
        return [ranks, suits]

    def _why_greyed(self, key: Any, touch: Any, suit: str) -> bool:
        """A tap on a greyed suit (a disabled button takes none): the reason in the message slot."""
        if not (key.disabled and key.collide_point(*touch.pos)):
            return False
        self.screen.then(self.pad.why_greyed, suit)
        return True

    def _preview(self, s: dict[str, Any]) -> FitLabel:
        fs = self.app.fs * sp(14)
        return FitLabel(text=self._preview_text(s), size_hint_y=None, height=dp(40), base_font=fs, font_size=fs,
                        markup=True, color=rgba(self.app.colors["text"]), halign="center", valign="middle")

    def _preview_text(self, s: dict[str, Any]) -> str:
        """The totals and outcome of the plot picked so far; before that, what greys a suit, a reshuffle to make,
        or what to pick."""
        pad = self.pad
        pv = pad.preview()
        greyed = pad.greyed()
        if greyed:  # the rank tapped: say whose hand rules out the greyed suits (tap one for why)
            names = ", ".join(self.session.db.suits[sid].name for sid in greyed)
            text = f"Greyed: {pad.who(pad.slot)} cannot play the {pad.rank_text()} of {names} now (tap one for why)."
        elif pv is None and not pad.picks and s["next_draw"]["reshuffle"]:
            text = (f"[b]{pad.who('lead')}'s draw empties the draw pile: shuffle the discards into a new one as "
                    "you draw.[/b]")
        elif pv is None:
            text = "Pick the lead and both enforcers' cards (and the face-down card, if any)."
        else:
            t = pv["totals"]
            mm = pad.who("lead")
            ace = f" (Ace counts {pv['ace_value']})" if pv["ace_value"] else ""
            if pv["outcome"] == "succeeds":
                result = f"succeeds: {mm} +{pv['points']['mastermind']}"
            elif pv["outcome"] == "foiled":
                result = f"is foiled: {pad.who('first')} +1, {pad.who('second')} +1"
            else:
                result = "ties: nobody scores"
            text = f"{mm} {t['mastermind']}{ace} against {t['enforcers']}: the plot [b]{result}[/b]"
        return text

    def _last(self, plot: dict[str, Any]) -> Any:
        t = plot["totals"]
        scored = ", ".join(f"{p} +{n}" for p, n in plot["points"].items() if n)
        points = f" · {scored}" if scored else ("" if plot["outcome"] == "tie" else " · nobody scores")
        enf = ", ".join(f"{p} {c}" for p, c in plot["enforcers"].items())
        fd = f" + {plot['face_down']} face down" if plot["face_down"] else ""
        last = self._small(f"Turn {plot['turn']}: {plot['mastermind']} led {plot['lead']}{fd}; {enf}. "
                           f"{t['mastermind']} to {t['enforcers']}: {OUTCOME_WORDS[plot['outcome']]}{points}")
        last.testid = "last_plot"  # the driver reports where it is: all of it in view, never cut
        return last

    def _over(self, s: dict[str, Any]) -> BoxLayout:
        box = self._column()
        res = s["result"]
        box.add_widget(label(f"[b]{res['winner']} wins with {res['scores'][res['winner']]}[/b]"))
        box.add_widget(label(" · ".join(f"{p} {n}" for p, n in res["scores"].items())))
        return box

    def _in_message_slot(self, text: str) -> None:
        """Landscape: the pad's own line shown in the message slot, unless the slot holds a word of its own (a
        notice or refusal of the table, or the frame's "Undone."), which stays until the next tap."""
        said = self.screen.ids.message.text
        if not self.message and (not said or said == getattr(self, "_line_said", None)):
            self.message = self._line_said = text

    @staticmethod
    def _column() -> BoxLayout:
        box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(3))
        box.bind(minimum_height=box.setter("height"))
        return box
