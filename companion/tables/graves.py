"""The Detective Graves table: the five locations, the active one with its piles, the card pad,
abilities, the unmasking and the Detective's deduction notes."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.image import Image
from kivy.uix.label import Label

from companion.graves_pad import RANKS, GravesPad
from companion.tables.base import GameTable
from companion.tables.setup import PickInOrder, SecretEntry, SetupSpec
from companion.theme import rgba
from companion.widgets import SYMBOLS, Tile, button, label, symbol_button


class GravesNewGame(SetupSpec):
    def setup(self, names: list[str], colours: list[str], variants: list[str]) -> dict[str, Any]:
        setup: dict[str, Any] = {"detective": names[0], "colours": colours}
        if "long_haul" in variants:
            setup["cases"] = 4
        return setup


NEW_GAME = GravesNewGame(
    players=2, names=["Ann", "Ben"], players_note="Players (the first plays the Detective in case 1)",
    variants={"knows_all": "The Mastermind Knows All", "single_case": "The Single Case",
              "long_haul": "The Long Haul (4 cases)", "life_is_pain": "Life Is Pain"},
    exclusive=[("single_case", "long_haul")],
    seed_note="Seed: the app deals the five locations from it and shows which to lay out",
    picks=[PickInOrder("locations", "locations", 5, "locations",
                       "Deal five locations from the deck, then tap them here left to right",
                       seeded="Deal from a seed")],
    secrets=[SecretEntry("identity", "identities", 1, "the identity card you drew",
                         "or later, at the table, before the unmasking")])


class Table(GameTable):
    pad_class = GravesPad

    def scoreline(self, s: dict[str, Any]) -> str:
        case = s["case"]
        pts = s["result"]["scores"]
        role = {case["detective"]: "Detective", case["mastermind"]: "Mastermind"}
        return (f"Case {case['number']}/{s['cases_total']} · "
                + " · ".join(f"{p} ({role[p]}) {pts[p]}" for p in s["players"]))

    def widgets(self, s: dict[str, Any]) -> list[Any]:
        out: list[Any] = [self._strip(s)]
        if s["phase"] == "play":
            out += [self._active(s), self._pad(s, self.pad)]
        elif s["phase"] in ("unmasking", "identity"):
            out.append(self._unmasking(s, self.pad))
        elif s["phase"] == "deal":
            out.append(label("Deal a new row: the app deals it from the seed when one is set."))
        else:
            out.append(self._over(s))
        out.append(self._viewer_row(s))
        self.message = self.pad.message
        return out

    def _strip(self, s: dict[str, Any]) -> GridLayout:
        """The five locations: short name, trump symbol (starred when changed), time or result."""
        app = self.app
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
                suit = self.session.db.suits[loc["trump"]]
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
        loc = s["locations"][s["active"]]
        box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(2))
        box.bind(minimum_height=box.setter("height"))
        trump = self.session.db.suits[loc["trump"]].plural if loc["trump"] else "none"
        changed = " (changed)" if loc["trump"] != loc["printed_trump"] else ""
        box.add_widget(label(f"[b]{loc['name']}[/b] · trump {trump}{changed} · {loc['time']} time token(s) left"))
        box.add_widget(label(f"Turn {s['turn']} · lead {s['lead']} · [b]{s['to_act']} to act[/b]"
                             + (" · 1 pass" if s["passes_in_a_row"] else "")))
        for p in s["players"]:
            cards = ", ".join(loc["piles"][p]) or "no cards"
            box.add_widget(label(f"{p}: {cards} = [b]{loc['totals'][p]}[/b]"))
        return box

    def _pad(self, s: dict[str, Any], pad: GravesPad) -> BoxLayout:
        app = self.app
        box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(4))
        box.bind(minimum_height=box.setter("height"))
        ranks = GridLayout(cols=5, size_hint_y=None, spacing=dp(3))
        ranks.bind(minimum_height=ranks.setter("height"))
        for r in RANKS:
            ranks.add_widget(button(r, f"rank_{r}", lambda r=r: self.screen.then(pad.tap_rank, r),
                                    flat=pad.rank != r))
        box.add_widget(ranks)
        suits = GridLayout(cols=5, size_hint_y=None, height=dp(64), spacing=dp(3))
        for sid, suit in self.session.db.suits.items():
            suits.add_widget(symbol_button(f"suit_{sid}", suit.symbol, suit.colour,
                                           lambda sid=sid: self.screen.then(pad.tap_suit, sid)))
        box.add_widget(suits)
        box.add_widget(label(" · ".join(s.name for s in self.session.db.suits.values()), muted=True, font_size=app.fs * sp(11)))
        total = pad.preview_total()
        box.add_widget(label(pad.selection_text() + (f" (pile would total {total})" if pad.cards else "")))
        row = GridLayout(cols=3, size_hint_y=None, spacing=dp(3))
        row.bind(minimum_height=row.setter("height"))
        row.add_widget(button("Play", "play", lambda: self.screen.do(pad.play())))
        row.add_widget(button("Pass", "pass", lambda: self.screen.do(pad.pass_turn())))
        row.add_widget(button("Clear", "clear", lambda: self.screen.then(pad.clear), flat=True))
        if any(c[0] == "2" for c in pad.cards):
            row.add_widget(button(("[x] " if pad.change_trump else "[  ] ") + "Deuce: new trump", "deuce",
                                  lambda: self.screen.then(setattr, pad, "change_trump", not pad.change_trump),
                                  flat=not pad.change_trump))
        if self.session.state.location.kind == "park_discard":
            row.add_widget(button(f"Park discards: {pad.discards} (+)", "park_plus",
                                  lambda: self.screen.then(setattr, pad, "discards", pad.discards + 1), flat=True))
            row.add_widget(button("(-)", "park_minus",
                                  lambda: self.screen.then(setattr, pad, "discards", max(0, pad.discards - 1)), flat=True))
        row.add_widget(button("Ability...", "ability", self._abilities, flat=True))
        box.add_widget(row)
        return box

    def _abilities(self) -> None:
        pad = self.pad
        body = self.screen.start_page()
        body.add_widget(label("[b]Discard a card for its ability[/b] (then end the turn with Play)"))
        for card, text, kind in pad.abilities():
            rank, suit = card.split(" ", 1)
            title = f"{rank} {self.session.db.suits[suit].name}: {text}"
            if kind in ("discard_from_opponent_pile", "take_back"):
                targets = pad.ability_targets(kind)
                body.add_widget(label(title))
                for t in targets:
                    r, su = t.split(" ", 1)
                    body.add_widget(button(f"  on {r} {self.session.db.suits[su].name}", f"ab_{card}_{t}".replace(" ", "_"),
                                           lambda c=card, t=t: self.screen.do(pad.use_ability(c, t)), flat=True))
                if not targets:
                    body.add_widget(label("  (no card to take)", muted=True))
            else:
                body.add_widget(button(title, f"ab_{card}".replace(" ", "_"), lambda c=card: self.screen.do(pad.use_ability(c)),
                                       flat=True))
        body.add_widget(button("Back", "ability_back", self.screen.refresh))

    def _unmasking(self, s: dict[str, Any], pad: GravesPad) -> BoxLayout:
        box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(4))
        box.bind(minimum_height=box.setter("height"))
        case = s["case"]
        ev = case["evidence_won"]
        box.add_widget(label("[b]The unmasking[/b] · evidence won: " + ", ".join(f"{p} {n}" for p, n in ev.items())))
        if s["phase"] == "identity":
            box.add_widget(label(f"{case['mastermind']}, Mastermind: who were you?"))
            for iid, name in pad.identities():
                box.add_widget(button(name, f"identity_{iid}", lambda i=iid: self.screen.do(pad.set_identity(i)), flat=True))
            return box
        if "possible_masterminds" in case:
            names = {c.id: c["name"] for c in self.session.db.components["identities"].cards}
            box.add_widget(label("Still possible by your evidence: "
                                 + ", ".join(names[i] for i in case["possible_masterminds"]), muted=True))
        if s["variants"] == [] or not set(s["variants"]) & {"knows_all", "single_case"}:
            box.add_widget(button(f"{case['mastermind']} reveals early (Detective +2)", "reveal",
                                  lambda: self.screen.do(pad.reveal())))
        box.add_widget(label(f"{case['detective']}, Detective: name the Mastermind"))
        for iid, name in pad.identities():
            box.add_widget(button(name, f"guess_{iid}", lambda i=iid: self.screen.do(pad.guess(i)), flat=True))
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
        row = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(3))
        case = s["case"]
        me = self.session.state.case
        if self.screen.viewer < 0:
            row.add_widget(button(f"Detective ({case['detective']}): notes", "view_det",
                                  lambda: self.screen.set_viewer(me.detective), flat=True))
            row.add_widget(button(f"Mastermind ({case['mastermind']}): secret", "view_mm",
                                  lambda: self.screen.set_viewer(me.mastermind), flat=True))
        else:
            who = self.session.state.players[self.screen.viewer]
            ident = case.get("identity")
            text = f"{who}'s view" + (f": you are {ident}" if ident and self.screen.viewer == me.mastermind else "")
            row.add_widget(button(text + " (hide)", "view_hide", lambda: self.screen.set_viewer(-1), flat=True))
            if self.screen.viewer == me.mastermind and not ident:
                row.add_widget(button("Set identity", "set_identity", self._identity_picker, flat=True))
            if self.screen.viewer == me.detective:
                row.add_widget(button("Note evidence", "note_evidence", self._evidence_picker, flat=True))
        if self.screen.viewer == me.detective and "possible_masterminds" in case:
            names = {c.id: c["name"] for c in self.session.db.components["identities"].cards}
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
        names = {c.id: c["name"] for c in self.session.db.components["identities"].cards}
        who = self.session.state.players[self.session.state.case.detective]
        body = self.screen.start_page()
        body.add_widget(label(f"{who}: which evidence card did you win? (viable suspects shown)"))
        for card in self.session.db.components["evidence"].cards:
            text = ", ".join(names[i].split()[-1] for i in card["viable"])
            body.add_widget(button(text, f"evidence_{card.id}", lambda cid=card.id, w=who: self.screen.do(
                self.session.do({"action": "note_evidence", "by": w, "evidence": cid})), flat=True))
        body.add_widget(button("Back", "evidence_back", self.screen.refresh))

    def _identity_picker(self) -> None:
        body = self.screen.start_page()
        body.add_widget(label("Mastermind only: which identity card did you draw?"))
        for iid, name in self.pad.identities():
            body.add_widget(button(name, f"identity_{iid}", lambda i=iid: self.screen.do(self.pad.set_identity(i)), flat=True))
        body.add_widget(button("Back", "identity_back", self.screen.refresh))
