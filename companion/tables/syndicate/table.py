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
        slots = [] if self.screen.landscape else [self._slots()]
        return [*slots, *self._pad(), self._preview()]

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
        grid = GridLayout(cols=3, size_hint_y=None, height=dp(72), spacing=dp(3))
        roles = {}
        if s["phase"] != "over":
            roles = {s["mastermind"]: "mastermind", s["enforcers"][0]: "plays 1st", s["enforcers"][1]: "plays 2nd"}
        winner = s["result"].get("winner")
        colours = self.session.log.setup.get("colours") or []
        for i, p in enumerate(s["players"]):
            role = "winner" if p == winner else roles.get(p, "")
            hexcol = PLAYER_COLOURS.get(colours[i]) if i < len(colours) else None
            tile = Tile(text=f"[b]{p}[/b]\n[size={int(app.fs * sp(22))}]{s['scores'][p]}[/size]  {role}",
                        testid=f"player_{i}", flat=p != s["mastermind"] and p != winner, markup=True,
                        font_size=app.fs * sp(14), height=dp(72))
            tile.bind(on_release=lambda *_: app.open_rules("mastermind enforcers left"))
            if hexcol:  # the player's colour chosen at set-up, as a bar along the tile's top
                colour_bar(tile, hexcol)
            grid.add_widget(tile)
        return grid

    def _turn(self, s: dict[str, Any]) -> BoxLayout:
        box = self._column()
        draw = s["next_draw"]
        first = "" if s["turn"] > 1 else " (no draw on the first turn)"
        line = (f"{s['mastermind']} draws {draw['cards']} to have five{first}" if draw["cards"]
                else f"{s['mastermind']} holds five{first}")
        box.add_widget(label(f"{line} · draw pile {s['draw_pile']} · discards {s['discard_pile']}", muted=True))
        if draw["reshuffle"]:
            box.add_widget(label("[b]The draw pile runs out: shuffle the discards into a new draw pile as you "
                                 "draw.[/b]"))
        return box

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
        out_of_play = pad.out_of_play()
        for sid, suit in db.suits.items():
            suits.add_widget(symbol_button(f"suit_{sid}", suit.symbol, suit.colour,
                                           lambda sid=sid: self.screen.then(pad.tap_suit, sid), height=56,
                                           disabled=sid in out_of_play, caption=suit.name))
        return [ranks, suits]

    def _preview(self) -> FitLabel:
        pad = self.pad
        pv = pad.preview()
        if pv is None:
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
        fs = self.app.fs * sp(14)
        return FitLabel(text=text, size_hint_y=None, height=dp(40), base_font=fs, font_size=fs, markup=True,
                        color=rgba(self.app.colors["text"]), halign="center", valign="middle")

    def _last(self, plot: dict[str, Any]) -> Any:
        t = plot["totals"]
        scored = ", ".join(f"{p} +{n}" for p, n in plot["points"].items() if n)
        points = f" · {scored}" if scored else ("" if plot["outcome"] == "tie" else " · nobody scores")
        enf = ", ".join(f"{p} {c}" for p, c in plot["enforcers"].items())
        fd = f" + {plot['face_down']} face down" if plot["face_down"] else ""
        return label(f"Turn {plot['turn']}: {plot['mastermind']} led {plot['lead']}{fd}; {enf}. "
                     f"{t['mastermind']} against {t['enforcers']}: {OUTCOME_WORDS[plot['outcome']]}{points}",
                     muted=True)

    def _over(self, s: dict[str, Any]) -> BoxLayout:
        box = self._column()
        res = s["result"]
        box.add_widget(label(f"[b]{res['winner']} wins with {res['scores'][res['winner']]}[/b]"))
        box.add_widget(label(" · ".join(f"{p} {n}" for p, n in res["scores"].items())))
        return box

    @staticmethod
    def _column() -> BoxLayout:
        box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(3))
        box.bind(minimum_height=box.setter("height"))
        return box
