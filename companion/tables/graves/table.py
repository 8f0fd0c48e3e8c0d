"""The Detective Graves table: the five locations, the active one with its piles, the card pad,
abilities, the unmasking, the game's end; the Mastermind's identity and the Detective's evidence
are secrets, shown only behind each player's "hold to see"."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp, sp
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.image import Image
from kivy.uix.label import Label

from casebook.companion.pictures import picture_for
from casebook.companion.tables.base import GameTable
from casebook.companion.tables.graves.pad import RANKS, GravesPad
from casebook.companion.tables.setup import (
    PickInOrder,
    SecretEntry,
    SetupSpec,
    options,
    pick_grid,
    row_text,
)
from casebook.companion.theme import PLAYER_COLOURS, readable, rgba
from casebook.companion.widgets import (
    SYMBOLS,
    Tile,
    button,
    colour_bar,
    confirm,
    label,
    picture,
    pictured,
    symbol_button,
    top_picture,
    widest_word,
)
from casebook.rules.games.graves import possible_masterminds


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
    secrets=[SecretEntry("identity", "identities", 1, "identity card", "the identity card you drew",
                         "or later at the table, before the unmasking")])


SOFT = "\u00ad"  # where a long name may break (with a hyphen) when its tile is too narrow for it at 12 sp
SHORT_NAMES = {"The Countryside": f"Country{SOFT}side", "The Bank Strongroom": f"Strong{SOFT}room"}  # the strip's
SUIT_HEIGHT = 60  # dp: a suit key, room for its symbol over a name on two lines ("Question / Mark"); in landscape
# the pad column holds two rows of ranks and this row, no more (test_table_sizes)


class NameTile(Tile):
    """A location in the strip: its name whole if it fits, else broken at its soft hyphen onto two lines, never
    shrunk under its 12 sp to fit (the names are short: a word that fits no tile would be a new one to break)."""

    name = StringProperty("")

    def __init__(self, **kw: Any):
        super().__init__(**kw)
        self.bind(name=self.fit_words)
        self.fit_words()

    def fit_words(self, *_args: Any) -> None:
        whole = self.name.replace(SOFT, "")
        room = self.width - dp(4)
        fits = room <= 0 or widest_word(whole, self.base_font, self.bold, self.font_name) <= room
        self.text = whole if fits else self.name.replace(SOFT, "-\n")
        super().fit_words()


class Table(GameTable):
    pad_class = GravesPad
    new_row: list[str]  # a new row of locations (Life Is Pain, The Long Haul), tapped in the order dealt

    # --- what the frame asks ---------------------------------------------------------------------

    def scoreline(self, s: dict[str, Any]) -> str:
        pts = s["result"]["scores"]
        over = " · game over" if s["phase"] == "over" else ""
        return f"Case {s['case']['number']} of {s['cases_total']}{over} · " + " · ".join(
            f"{p} {pts[p]}" for p in s["players"])

    def widgets(self, s: dict[str, Any]) -> list[Any]:
        out: list[Any] = [self._strip(s)]
        if s["phase"] == "play":
            if self.screen.landscape:
                out += self._location_row(s)
            out.append(self._active(s))
        elif s["phase"] in ("unmasking", "identity"):
            out += [self._players(s), self._evidence_won(s)]
        elif s["phase"] == "deal":
            out += [self._players(s)]
        else:
            out += [self._players(s), self._over(s)]
        # each player's buttons before the finished cases; right under the strip during play (piles that grow
        # would push a "hold to see" off the window) and while one of them still has something to enter (the
        # identity drawn, evidence won): what a player must do next, or look at, is never scrolled away
        self.secrets_after = 1 if self._to_enter(s) or s["phase"] == "play" else len(out)
        if s["phase"] != "over" and s["cases_done"]:
            out.append(self._cases_done(s))
        self.message = self.pad.message
        return out

    def pad_widgets(self, s: dict[str, Any]) -> list[Any]:
        if s["phase"] == "play":
            return self._pad(s, self.pad)
        if s["phase"] in ("unmasking", "identity"):
            return self._unmasking(s, self.pad)
        if s["phase"] == "deal":
            return self._deal_pad()
        return []

    def actions(self, s: dict[str, Any]) -> list[Any]:
        pad = self.pad
        if s["phase"] == "play" and pad.reveal_pending():
            return [button("Reveal", "reveal_top", lambda: self.screen.do(pad.reveal_top())),
                    button("Deck empty", "deck_empty", lambda: self.screen.do(pad.reveal_top(empty=True)), flat=True),
                    button("Clear", "clear", lambda: self.screen.then(pad.clear), flat=True)]
        if s["phase"] == "play":
            out = [button("Play", "play", lambda: self.screen.do(pad.play())),
                   button("Pass", "pass", lambda: self.screen.do(pad.pass_turn())),
                   button("Clear", "clear", lambda: self.screen.then(pad.clear), flat=True)]
            # always in the bar (greyed until a deuce is picked), so that the bar never shifts
            out.append(button(("[x] " if pad.change_trump else "") + "New trump", "deuce",
                              lambda: self.screen.then(setattr, pad, "change_trump", not pad.change_trump),
                              flat=not pad.change_trump, disabled=not any(c[0] == "2" for c in pad.cards)
                              or self.session.state.location.kind == "no_abilities"))
            out.append(button("Ability...", "ability", self._abilities, flat=True))
            return out
        if s["phase"] == "deal":
            back = button("Take back the last", "row_back", lambda: self.screen.then(self._row().pop), flat=True,
                          disabled=not self._row())
            return [button("Confirm", "row_confirm", lambda: self._deal(s), disabled=len(self._row()) != 5), back]
        if s["phase"] == "unmasking" and pad.guessing is not None:  # a guess is final: asked before it counts
            return [button("Sure", "guess_yes", lambda: self.screen.do(pad.confirm_guess())),
                    button("Cancel", "guess_no", lambda: self.screen.then(pad.clear), flat=True)]
        if s["phase"] == "unmasking" and self._may_reveal(s):
            case = s["case"]
            return [button(f"{case['mastermind']} reveals early", "reveal", lambda: self._confirm_reveal(s))]
        return []

    def secrets(self, s: dict[str, Any]) -> dict[str, str]:
        case = s["case"]
        out: dict[str, str] = {}
        if self._is_public(s) or s["phase"] == "over":
            return out
        if case["identity"]:
            out[case["mastermind"]] = f"You are {self._identity(case['identity'])}."
        noted = case["evidence_noted"].get(case["detective"], [])
        if noted:
            names = self._identity_names()
            still = possible_masterminds(self.session.db, noted)
            out[case["detective"]] = (f"{len(noted)} evidence card(s) noted. Still possible: "
                                      + ", ".join(names[i] for i in still) + ".")
        return out

    def secret_pictures(self, s: dict[str, Any]) -> dict[str, list[str]]:
        """The Mastermind's identity's own picture, with its name in the hold's view only."""
        case = s["case"]
        found = picture_for("graves", case["identity"]) if case["mastermind"] in self.secrets(s) else None
        return {case["mastermind"]: [found]} if found else {}

    def secret_actions(self, s: dict[str, Any]) -> list[Any]:
        case = s["case"]
        picker = {"set_identity": self._identity_picker, "note_evidence": self._evidence_picker}
        return [button(f"{case[who]}: {what}", testid, picker[testid], flat=True)
                for testid, who, what in self._to_enter(s)]

    @staticmethod
    def _to_enter(s: dict[str, Any]) -> list[tuple[str, str, str]]:
        """What a player still enters alone: (testid, role, words) for the identity drawn, the evidence won."""
        case = s["case"]
        if s["phase"] not in ("play", "unmasking"):
            return []
        out = []
        if not case["identity"]:
            out.append(("set_identity", "mastermind", "set your identity"))
        noted = case["evidence_noted"].get(case["detective"], [])
        if case["evidence_won"][case["detective"]] > len(noted):
            out.append(("note_evidence", "detective", "note evidence won"))
        return out

    def has_draft(self) -> bool:
        pad = self.pad
        return bool(self._row()) or bool(pad.rank or pad.cards or pad.change_trump or pad.discards or pad.slums_here
                                         or pad.slums_next or pad.guessing)

    def clear(self) -> None:
        super().clear()
        self._row().clear()

    # --- a new row of locations, dealt at the table ------------------------------------------------

    def _row(self) -> list[str]:
        if not hasattr(self, "new_row"):
            self.new_row = []
        return self.new_row

    def _deal_pad(self) -> list[Any]:
        """The twelve locations by name, tapped left to right as the new row was dealt."""
        choices = options(self.session.db, "locations")
        row = self._row()

        def pick(cid: str) -> None:
            if cid not in row and len(row) < 5:
                row.append(cid)

        return [label(f"[b]Case {self.session.state.case.number}[/b]: deal five locations from the deck, "
                      "then tap them here left to right"),
                pick_grid(choices, row, "row", lambda c: self.screen.then(pick, c), game="graves"),
                self._line(row_text(dict(choices), row, 5))]

    def _deal(self, s: dict[str, Any]) -> None:
        outcome = self.session.do({"action": "deal", "by": s["case"]["detective"], "locations": list(self._row())})
        if outcome.ok:
            self._row().clear()
        self.screen.do(outcome)

    # --- names -----------------------------------------------------------------------------------

    def _identity_names(self) -> dict[str, str]:
        return {c.id: str(c["name"]) for c in self.session.db.components["identities"].cards}

    def _identity(self, iid: str | None) -> str:
        """An identity by its name and epithet ('Ezra Hollowmere, the Spinner'), never its id."""
        cards = {c.id: c for c in self.session.db.components["identities"].cards}
        card = cards.get(iid or "")
        return f"{card['name']}, {card['epithet']}" if card else str(iid)

    @staticmethod
    def _is_public(s: dict[str, Any]) -> bool:
        """Whether this case's identity is known at the table (named, revealed, or the game is over)."""
        case = s["case"]
        return case["guess"] is not None or bool(case["revealed_early"]) or s["phase"] == "over"

    @staticmethod
    def _may_reveal(s: dict[str, Any]) -> bool:
        return not set(s["variants"]) & {"knows_all", "single_case"}

    def _colour(self, player: str) -> str | None:
        colours = self.session.log.setup.get("colours") or []
        i = self.session.state.players.index(player)
        return PLAYER_COLOURS.get(colours[i]) if i < len(colours) else None

    # --- parts -----------------------------------------------------------------------------------

    def _players(self, s: dict[str, Any]) -> GridLayout:
        """Each player with their colour (a bar beside the name), role this case and points."""
        case = s["case"]
        pts = s["result"]["scores"]
        role = {case["detective"]: "Detective", case["mastermind"]: "Mastermind"}
        grid = GridLayout(cols=2, size_hint_y=None, spacing=dp(3))
        grid.bind(minimum_height=grid.setter("height"))
        for p in s["players"]:
            grid.add_widget(self._player_line(p, f"{p} · {role[p]} · [b]{pts[p]}[/b]"))
        return grid

    def _player_line(self, player: str, text: str) -> Any:
        """A line about one player, with their colour as a bar on its left."""
        line = label(text, padding=(dp(12), 0))
        hexcol = self._colour(player)
        if hexcol:
            colour_bar(line, hexcol, side="left", thick=8)
        return line

    def _strip(self, s: dict[str, Any]) -> GridLayout:
        """The five locations: short name, trump symbol (starred when changed), time or result."""
        app = self.app
        grid = GridLayout(cols=5, size_hint_y=None, height=dp(84), spacing=dp(3))
        for i, loc in enumerate(s["locations"]):
            if loc["resolved"]:
                status = f"{loc['winner']}" if loc["winner"] else "tie"
            else:
                status = f"{loc['time']}/{loc['clocks']} time"
            short = SHORT_NAMES.get(loc["name"], loc["name"].replace("The ", "").replace("Bank ", ""))
            star = "*" if loc["trump"] != loc["printed_trump"] else ""
            b = NameTile(name=short, testid=f"loc_{i}", flat=not loc["active"], height=dp(84),
                     font_size=app.fs * sp(12), bold=bool(loc["active"]))
            b.bind(on_release=lambda *_, name=loc["name"]: app.open_rules(name.replace("The ", "")))
            own = picture_for("graves", loc["id"])  # the location's own picture, left of its trump's
            shift = dp(13) if own and loc["trump"] else 0
            if own:
                mine = picture(own, app.colors["text"], 22)
                b.bind(pos=lambda w, *_a, im=mine, dx=shift: setattr(im, "center", (w.center_x - dx, w.y + dp(34))))
                b.add_widget(mine)
            if loc["trump"]:
                suit = self.session.db.suits[loc["trump"]]
                back = app.colors["active" if loc["active"] else "panel"]
                img = Image(source=str(SYMBOLS / f"{suit.symbol}.png"), color=rgba(readable(suit.colour, back)),
                            fit_mode="contain", size_hint=(None, None), size=(dp(22), dp(22)))
                b.bind(pos=lambda w, *_a, im=img, dx=shift: setattr(im, "center", (w.center_x + dx, w.y + dp(34))))
                b.add_widget(img)
            foot = Label(text=f"{status}{star}", font_size=app.fs * sp(12), color=rgba(app.colors["text"]),
                         size_hint=(None, None), size=(dp(64), dp(20)), bold=bool(loc["active"]))
            b.bind(pos=lambda w, *_a, lb=foot: setattr(lb, "center", (w.center_x, w.y + dp(12))))
            b.add_widget(foot)
            grid.add_widget(b)
        return grid

    def _active(self, s: dict[str, Any]) -> BoxLayout:
        loc = s["locations"][s["active"]]
        box = self._column()
        trump = self.session.db.suits[loc["trump"]].plural if loc["trump"] else "none"
        changed = " (changed)" if loc["trump"] != loc["printed_trump"] else ""
        # its time tokens left are on the strip above ("4/5 time"): the line stays one line, both piles in view
        box.add_widget(pictured(f"[b]{loc['name']}[/b] · trump {trump}{changed}",
                                picture_for("graves", loc["id"]), self.app.colors["text"]))
        role = {s["case"]["detective"]: "Detective", s["case"]["mastermind"]: "Mastermind"}
        for n, p in enumerate(s["players"]):
            cards = ", ".join(loc["piles"][p]) or "no cards"
            # the total first: a pile of several cards wraps, and its total stays on the line a player sees
            line = self._player_line(p, f"{p} ({role[p]}): [b]{loc['totals'][p]}[/b] · {cards}")
            line.testid = f"pile_{n}"  # for the driver: whether it is in view
            box.add_widget(line)
        return box

    def _pad(self, s: dict[str, Any], pad: GravesPad) -> list[Any]:
        ranks = GridLayout(cols=5, size_hint_y=None, spacing=dp(3))
        ranks.bind(minimum_height=ranks.setter("height"))
        for r in RANKS:
            ranks.add_widget(button(r, f"rank_{r}", lambda r=r: self.screen.then(pad.tap_rank, r),
                                    flat=pad.rank != r))
        suits = GridLayout(cols=5, size_hint_y=None, height=dp(SUIT_HEIGHT), spacing=dp(3))
        for sid, suit in self.session.db.suits.items():  # a two-word name on two lines at 12 sp, the symbol above
            suits.add_widget(symbol_button(f"suit_{sid}", suit.symbol, suit.colour,
                                           lambda sid=sid: self.screen.then(pad.tap_suit, sid), height=SUIT_HEIGHT,
                                           caption=suit.name))
        total = pad.preview_total()
        passed = " · 1 pass" if s["passes_in_a_row"] else ""
        revealing = pad.reveal_pending()
        if revealing:
            picked = ", ".join(pad.card_text(c) for c in pad.cards) or "tap its rank and suit"
            text = f"[b]{revealing}[/b]: reveal the top card of your deck into your pile here · {picked}"
        else:
            text = f"[b]{s['to_act']} to act[/b] (turn {s['turn']}, lead {s['lead']}{passed}) · " + \
                pad.selection_text() + (f" (pile would total {total})" if pad.cards else "")
        if self.screen.landscape:  # the pad column holds ranks and suits alone: its line takes the message slot
            self._in_message_slot(text)
            return [ranks, suits]
        return [ranks, suits, self._line(text), *self._location_row(s)]

    def _location_row(self, s: dict[str, Any]) -> list[Any]:
        """The Slums' or The Park's own row, there for the whole location (nothing jumps); in landscape it sits in
        the state column under the strip, in view (the pad column is full with ranks and suits)."""
        pad = self.pad
        if self.session.state.location.kind == "slums_time":
            return [self._slums_row(s)]
        if self.session.state.location.kind == "park_discard":
            # the count takes what the two keys leave: one line, or two in landscape's narrow column (not three)
            row = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(3))
            said = label(f"Park: {pad.discards} discarded first", pos_hint={"center_y": 0.5})
            said.testid = "park_line"  # for the driver: its height, so its lines
            row.add_widget(said)
            for key, text, step in (("park_minus", "(-)", -1), ("park_plus", "(+)", 1)):
                row.add_widget(button(text, key, lambda step=step: self.screen.then(
                    setattr, pad, "discards", max(0, pad.discards + step)), flat=True, size_hint_x=None,
                    width=dp(60)))
            return [row]
        return []

    def _slums_row(self, s: dict[str, Any]) -> GridLayout:
        """The Slums: the Detective sets -1, 0 or +1 token here and at the next location, once."""
        pad = self.pad
        det = s["case"]["detective"]
        row = GridLayout(cols=3, size_hint_y=None, height=dp(52), spacing=dp(3))
        shut = not pad.slums_pending()  # once set, or once play here has begun

        def cycle(name: str) -> None:
            setattr(pad, name, {0: 1, 1: -1, -1: 0}[getattr(pad, name)])

        row.add_widget(button(f"Here {pad.slums_here:+d}", "slums_here", lambda: self.screen.then(cycle, "slums_here"),
                              flat=True, disabled=shut))
        row.add_widget(button(f"Next {pad.slums_next:+d}", "slums_next", lambda: self.screen.then(cycle, "slums_next"),
                              flat=True, disabled=shut))
        row.add_widget(button(f"{det}: set Slums time", "slums_set",
                              lambda: self.screen.do(pad.slums(pad.slums_here, pad.slums_next)), flat=True,
                              disabled=shut))
        return row

    def _abilities(self) -> None:
        """The ability cards of the player to act; one the table can see is refused now is greyed with why."""
        pad = self.pad
        body = self.screen.start_page()
        body.add_widget(label("[b]Discard a card for its ability[/b] (then end the turn with Play)"))
        loc = self.session.state.location
        if loc.kind == "no_abilities":
            body.add_widget(label(f"[b]{loc.name}[/b]: no special ability may be used while it is the active "
                                  "location."))
        for card, text, kind in pad.abilities():
            rank, suit = card.split(" ", 1)
            title = f"{rank} {self.session.db.suits[suit].name}: {text}"
            why = pad.ability_refusal(card, kind)
            if kind in ("discard_from_opponent_pile", "take_back") and why is None:
                body.add_widget(label(title))
                for t in pad.ability_targets(kind):
                    r, su = t.split(" ", 1)
                    body.add_widget(self._ability_button(f"  on {r} {self.session.db.suits[su].name}",
                                                         f"ab_{card}_{t}", pad.ability_refusal(card, kind, t),
                                                         lambda c=card, t=t: self.screen.do(pad.use_ability(c, t))))
            else:
                body.add_widget(self._ability_button(title, f"ab_{card}", why,
                                                     lambda c=card: self.screen.do(pad.use_ability(c))))

    def _ability_button(self, text: str, testid: str, why: str | None, action: Any) -> Any:
        """An ability (or its target): greyed out with the reason under it when the rules refuse it now."""
        if why is not None:
            text += f"\n[size={int(self.app.fs * sp(13))}]{why}[/size]"
        return button(text, testid.replace(" ", "_"), action, flat=True, markup=True, disabled=why is not None)

    def _evidence_won(self, s: dict[str, Any]) -> Any:
        ev = s["case"]["evidence_won"]
        return label("[b]The unmasking[/b] · evidence won: " + ", ".join(f"{p} {n}" for p, n in ev.items()))

    def _unmasking(self, s: dict[str, Any], pad: GravesPad) -> list[Any]:
        case = s["case"]
        grid = GridLayout(cols=2, size_hint_y=None, spacing=dp(3))
        grid.bind(minimum_height=grid.setter("height"))
        if pad.guessing is not None:  # the question alone: no other name to tap until Sure or Cancel
            return [label(f"[b]{pad.guess_question()}[/b]\nThe case ends with the guess.")]
        if s["phase"] == "identity":
            prompt = f"[b]{case['mastermind']}[/b], Mastermind: who were you?"
            for iid, name in pad.identities():
                grid.add_widget(self._identity_key(iid, name, "identity",
                                                   lambda i=iid: self.screen.do(pad.set_identity(i))))
        else:
            prompt = f"[b]{case['detective']}[/b], Detective: name the Mastermind"
            for iid, name in pad.identities():
                grid.add_widget(self._identity_key(iid, name, "guess",
                                                   lambda i=iid: self.screen.then(pad.ask_guess, i)))
        if self.screen.landscape:  # the five names fill the pad column: the prompt takes the message slot
            self._in_message_slot(prompt)
            return [grid]
        return [label(prompt), grid]

    def _cases_done(self, s: dict[str, Any]) -> BoxLayout:
        """Each finished case's Mastermind, now known to all, and how the unmasking went."""
        box = self._column()
        names = self._identity_names()  # short: two lines at most on a phone, under the players' buttons
        for c in s["cases_done"]:
            who = f"Case {c['number']}: {c['mastermind']} was [b]{names.get(c['identity'], c['identity'])}[/b]"
            if c["revealed_early"]:
                how = f"{c['mastermind']} revealed early"
            elif c["guess"]:
                how = f"{c['detective']} guessed {names.get(c['guess'], c['guess'])}: {'right' if c['correct'] else 'wrong'}"
            else:
                how = ""
            box.add_widget(label(f"{who}." + (f" {how}." if how else "")))
        return box

    def _confirm_reveal(self, s: dict[str, Any]) -> None:
        case = s["case"]
        confirm(f"{case['mastermind']} reveals who they are: the case ends now and {case['detective']} scores 2 "
                "instead of guessing. Reveal?", "Reveal", lambda: self.screen.do(self.pad.reveal()), "reveal")

    def _over(self, s: dict[str, Any]) -> BoxLayout:
        """Every case (evidence, unmasking, points), the totals, the winner and why."""
        box = self._column()
        res = s["result"]
        cases = list(s["cases_done"])
        if s["case"]["number"] not in {c["number"] for c in cases}:
            cases.append(s["case"])  # the last case stays the current one in the summary
        for c in cases:
            ev = ", ".join(f"{p} {n}" for p, n in c["evidence_won"].items())
            if c["revealed_early"]:
                unmask = f"{c['mastermind']} revealed early: {self._identity(c['identity'])}"
            elif c["guess"]:
                verdict = "right" if c["correct"] else "wrong"
                unmask = f"{c['detective']} named {self._identity(c['guess'])}: {verdict}"
                if not c["correct"] and c["identity"]:
                    unmask += f" (it was {self._identity(c['identity'])})"
            else:
                unmask = "no unmasking"
            pts = ", ".join(f"{p} {n}" for p, n in c["points"].items())
            box.add_widget(label(f"[b]Case {c['number']}[/b]: {c['detective']} Detective, {c['mastermind']} "
                                 f"Mastermind\nEvidence won: {ev}\n{unmask}\nPoints: {pts}"))
        scores = res["scores"]
        box.add_widget(label("[b]Totals[/b]: " + ", ".join(f"{p} {n}" for p, n in scores.items())))
        box.add_widget(label(f"[b]{res.get('why') or self._verdict(res)}[/b]"))
        return box

    @staticmethod
    def _verdict(res: dict[str, Any]) -> str:
        scores, correct = res["scores"], res["correct_deductions"]
        winner = res.get("winner")
        if winner is None:
            return "A draw: equal points and equal correct deductions."
        loser = next(p for p in scores if p != winner)
        if res.get("decided_by") == "score":
            return f"{winner} wins on points, {scores[winner]} to {scores[loser]}."
        return (f"Tied on {scores[winner]} points: {winner} wins with more correct deductions "
                f"({correct[winner]} to {correct[loser]}).")

    def _evidence_picker(self) -> None:
        """The Detective notes which evidence card they won: the deduction helper narrows the suspects."""
        names = self._identity_names()
        who = self.session.state.players[self.session.state.case.detective]
        body = self.screen.start_page()
        body.add_widget(label(f"[b]{who} only[/b]: which evidence card did you win? (each names the suspects "
                              "still viable on it)"))
        for card in self.session.db.components["evidence"].cards:
            text = ", ".join(names[i].split()[-1] for i in card["viable"])
            body.add_widget(button(text, f"evidence_{card.id}", lambda cid=card.id, w=who: self.screen.do(
                self.session.do({"action": "note_evidence", "by": w, "evidence": cid})), flat=True))

    def _identity_picker(self) -> None:
        who = self.session.state.players[self.session.state.case.mastermind]
        body = self.screen.start_page()
        body.add_widget(label(f"[b]{who} only[/b]: which identity card did you draw?"))
        grid = GridLayout(cols=2, size_hint_y=None, spacing=dp(3))  # two a row, as at the unmasking: all in view
        grid.bind(minimum_height=grid.setter("height"))
        for iid, name in self.pad.identities():
            grid.add_widget(self._identity_key(iid, name, "identity",
                                               lambda i=iid: self.screen.do(self.pad.set_identity(i))))
        body.add_widget(grid)

    def _identity_key(self, iid: str, name: str, kind: str, action: Any) -> Any:
        """An identity card's button (`kind`_<id>): the picture its printed card draws left of its name, in 14 sp so
        that the longest ('Livia Marchbank, the Countess of Whispers') still takes two lines beside it and the five
        stay in view in landscape."""
        key = button(name, f"{kind}_{iid}", action, flat=True)
        key.font_size = self.app.fs * sp(14)  # after the kv rule, which sets every button's size
        top_picture(key, picture_for("graves", iid), self.app.colors["text"], size=18, at="left")
        return key

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
