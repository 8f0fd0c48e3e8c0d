"""The Clash of Minds table: the clock tower large in the middle, the three Crime Threads (each side's
Influence, the influence token's place, deduction tokens, revealed plans), the site and its limit, whose
turn and the actions left; a card played in two or three taps; the Initial Setup laid face down and named
once turned up; the Final Turn placed secretly (each side's cards only in its hold) and revealed in turn;
the Summary thread by thread; the ending. Moriarty's Crime Plan shows only in his hold."""

from __future__ import annotations

import math
from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from casebook.companion.pictures import picture_for
from casebook.companion.screens import column
from casebook.companion.tables.base import GameTable, NewGameSpec
from casebook.companion.tables.clash.pad import TAKE_WORDS, ClashPad
from casebook.companion.theme import readable, rgba
from casebook.companion.widgets import (
    MARKUP,
    Tile,
    button,
    colour_bar,
    label,
    picture,
    pictured,
    top_picture,
)
from casebook.rules.games import clash

SIDE_COLOURS = {"holmes": "#009E73", "moriarty": "#D55E00"}  # the card database's green and red
SMALL_SP = 12  # no text on the table is smaller
KIND_NAMES = {"victim": "victim", "felony": "felony", "object": "object"}

NEW_GAME = NewGameSpec(
    players=2, names=["Ann", "Ben"],
    players_note="The first player plays Holmes (green) and holds the First Player Card; the second plays "
                 "Moriarty (red).",
    variants={"agents": "Agents (4 a side)"},
    seed_note="Seed: for the sites the app deals ('Deal a site' at each Stage); or tap the site you revealed",
    palette={"green": SIDE_COLOURS["holmes"], "vermillion": SIDE_COLOURS["moriarty"]})



# --- the widgets -------------------------------------------------------------------------------------

class ClockTower(Widget):
    """The clock tower's dial: the hours gone by as a red sector from 12, and the hand."""

    def __init__(self, hours: int, colors: dict[str, str], **kw: Any):
        super().__init__(**kw)
        self.hours, self.colors = hours, colors
        redraw = Clock.create_trigger(self.draw)  # once the layout has settled (a resumed game in landscape: the
        self.bind(pos=redraw, size=redraw)  # dial drawn mid-layout was left blank)

    def draw(self, *_args: Any) -> None:
        c = self.colors
        size = min(self.width, self.height) - dp(4)
        cx, cy = self.center_x, self.center_y
        r = size / 2
        passed = min(self.hours, clash.CLOCK_HOURS) / clash.CLOCK_HOURS * 360
        self.canvas.clear()
        with self.canvas:
            Color(*rgba(c["panel"]))
            Ellipse(pos=(cx - r, cy - r), size=(size, size))
            if passed:
                Color(*rgba(SIDE_COLOURS["moriarty"], 0.35))
                Ellipse(pos=(cx - r, cy - r), size=(size, size), angle_start=0, angle_end=passed)
            Color(*rgba(c["text"]))
            Line(circle=(cx, cy, r), width=dp(2))
            for h in range(12):
                a = math.radians(h * 30)
                inner = r * (0.72 if h % 3 == 0 else 0.84)
                Line(points=[cx + inner * math.sin(a), cy + inner * math.cos(a), cx + r * math.sin(a),
                             cy + r * math.cos(a)], width=dp(2.5 if h % 3 == 0 else 1.2))
            a = math.radians(self.hours % 12 * 30)
            Color(*rgba(readable(SIDE_COLOURS["moriarty"], c["panel"])))
            Line(points=[cx, cy, cx + r * 0.75 * math.sin(a), cy + r * 0.75 * math.cos(a)], width=dp(3.5))
            Ellipse(pos=(cx - dp(5), cy - dp(5)), size=(dp(10), dp(10)))


class Track(Widget):
    """An influence track: Holmes' half left, Moriarty's right, the token at the advantage."""

    def __init__(self, advantage: int | None, colors: dict[str, str], **kw: Any):
        super().__init__(size_hint_y=None, height=dp(14), **kw)
        self.advantage, self.colors = advantage, colors
        redraw = Clock.create_trigger(self.draw)  # as the dial: once the layout has settled
        self.bind(pos=redraw, size=redraw)

    def draw(self, *_args: Any) -> None:
        x, y, w = self.x + dp(6), self.center_y, self.width - dp(12)
        mid = x + w / 2
        self.canvas.clear()
        with self.canvas:
            Color(*rgba(SIDE_COLOURS["holmes"]))
            Rectangle(pos=(x, y - dp(2)), size=(w / 2, dp(4)))
            Color(*rgba(SIDE_COLOURS["moriarty"]))
            Rectangle(pos=(mid, y - dp(2)), size=(w / 2, dp(4)))
            Color(*rgba(self.colors["text"]))
            Rectangle(pos=(mid - dp(1), y - dp(6)), size=(dp(2), dp(12)))
            if self.advantage is not None:
                at = mid - max(-10, min(10, self.advantage)) / 10 * (w / 2)  # Holmes' lead moves it to his side
                Ellipse(pos=(at - dp(6), y - dp(6)), size=(dp(12), dp(12)))


def panel(widget: Any, colour: str) -> Any:
    """A coloured background behind a widget (a thread, the clock's strip)."""
    with widget.canvas.before:
        Color(*rgba(colour))
        rect = Rectangle()
    widget.bind(pos=lambda w, *_: setattr(rect, "pos", w.pos), size=lambda w, *_: setattr(rect, "size", w.size))
    return widget


def one_line(keys: list[Any]) -> list[Any]:
    """The action bar's keys, each text on one line in its key: five keys a row (Agents) in large text split
    "Support" and stood taller than the bar. A text that does not fit is drawn smaller, down to 12 sp."""

    def fit(key: Any, *_a: Any) -> None:
        room, size = key.width - dp(8), key.base_font
        text = MARKUP.sub("", key.text)
        while size > sp(12) and CoreLabel(font_size=size, bold=key.bold).get_extents(text)[0] > room:
            size -= 0.5
        key.font_size = size

    for key in keys:
        key.base_font = float(key.font_size)
        key.bind(width=fit)
    return keys


class GreyTile(Tile):
    """A key that, greyed out, still answers a tap with why (a disabled Kivy button takes no tap at all)."""

    on_grey: Any = None

    def on_touch_down(self, touch: Any) -> bool:
        if self.disabled and self.collide_point(*touch.pos) and self.on_grey is not None:
            self.on_grey()
            return True
        return bool(super().on_touch_down(touch))


class Table(GameTable):
    pad_class = ClashPad
    pad: ClashPad

    def scoreline(self, s: dict[str, Any]) -> str:
        if s["phase"] == "over":
            res = s["result"]
            return f"Game over · {res['winner'] + ' wins' if res['winner'] else 'a draw'} · Stage {s['stage']}"
        who = s["active"] or (s["moriarty"] if s["phase"] == "plan" else s["first_player"])
        if s["phase"] == "setup":  # the next to lay or name a card, as the prompt says
            who = self.pad.who(self.pad.side())
        return f"Stage {max(1, s['stage'])} · {who} to act · first: {s['first_player']}"

    # --- the state ---------------------------------------------------------------------------------

    def widgets(self, s: dict[str, Any]) -> list[Any]:
        self.message = self.pad.message
        self._to_top(s)
        out: list[Any] = []
        if self.screen.landscape and s["phase"] != "over":  # the pad's column is short: its line leads here
            out.append(self._line(self.pad.prompt()))
        self.secrets_after = len(out)  # each player's hold leads the state: whole on the window, never cut off
        if s["phase"] == "over":
            out.append(self._over(s))
        if s["conclusions"] and s["phase"] in ("site", "over"):  # the Summary just made leads
            out.append(self._conclusion(s))
        out.append(self._clock(s))
        if not self.screen.landscape:  # in landscape the threads fill the right column, under the pad's keys
            out.append(self._threads(s))
        if s["site"]:
            out.append(label(f"[b]{s['site']['name']}[/b]: {s['site']['text']}", muted=True))
        out.append(self._players(s))
        if s["history"]:
            out.append(label(f"[b]Last:[/b] {s['history'][-1]}", muted=True))
        return out

    def _to_top(self, s: dict[str, Any]) -> None:
        """A new step (an event, a mode or card picked, a choice asked) shows the state from its top: the
        clock and the thread totals in view, not where the last step left the scroll."""
        pad = self.pad
        step = (s["events"], s["phase"], pad.need(), pad.mode, pad.card, pad.action_card, pad.take)
        if step != getattr(self, "_step", None):
            self._step = step
            for scroll in ("scroll", "pad_scroll"):
                self.screen.ids[scroll].scroll_y = 1

    def _clock(self, s: dict[str, Any]) -> Any:
        app = self.app
        tall = dp(104) if self.screen.landscape else max(dp(116), min(dp(220), self.screen.width * 0.28))
        strip = BoxLayout(size_hint_y=None, height=tall, spacing=dp(6))
        dial = ClockTower(s["clock"]["hours"], app.colors, size_hint_x=None, width=tall)
        dial.testid = "clock_dial"  # the GUI tests find it on the window and in the screenshot
        strip.add_widget(dial)
        info = column()
        hours, left = s["clock"]["hours"], s["clock"]["left"]
        large = app.fs * (sp(64) if tall > dp(160) else sp(40))  # a tablet's clock reads from further away
        big = Label(text=f"[b]{hours}[/b][size={int(app.fs * sp(18))}] of 12 hours[/size]", markup=True,
                    font_size=large, color=rgba(app.colors["text"]), size_hint_y=None,
                    height=large * 1.25, halign="left", valign="middle")
        big.bind(size=lambda w, *_: setattr(w, "text_size", w.size))
        info.add_widget(big)
        info.add_widget(label(f"{s['clock']['shows']} · {left} hour{'' if left == 1 else 's'} left"))
        site = s["site"]
        if site:  # its effect is told under the threads
            info.add_widget(pictured(f"[b]{site['name']}[/b]\nlimit {site['limit']} · +{site['hours']} "
                                     f"hour{'' if site['hours'] == 1 else 's'}", picture_for("clash", site["id"]),
                                     app.colors["text"]))
        elif s["phase"] not in ("plan", "over"):
            info.add_widget(label(f"Stage {s['stage'] + 1}: no site revealed yet", muted=True))
        info.pos_hint = {"top": 1}
        info.bind(minimum_height=lambda _w, h: setattr(strip, "height", max(tall, h)))
        strip.height = max(tall, info.minimum_height)
        strip.add_widget(info)
        return strip

    def _threads(self, s: dict[str, Any]) -> BoxLayout:
        """The three threads side by side, as tall as the tallest (each fills its column from the top)."""
        row = BoxLayout(size_hint_y=None, spacing=dp(3))
        tiles = [self._thread(s, t) for t in s["threads"]]

        def need(tile: Any) -> float:
            parts = [c for c in tile.children if c.size_hint_y is None]
            return float(sum(c.height for c in parts) + tile.spacing * len(parts) + tile.padding[1] * 2)

        def fit(*_a: Any) -> None:
            row.height = max(need(t) for t in tiles)
            for t in tiles:
                t.height = row.height

        for tile in tiles:
            for part in tile.children:
                part.bind(height=fit)
            row.add_widget(tile)
        fit()
        return row

    def _thread(self, s: dict[str, Any], t: dict[str, Any]) -> Any:
        app, c = self.app, self.app.colors
        small = self._small()
        box = panel(BoxLayout(orientation="vertical", spacing=dp(4), padding=(dp(3), dp(3)), size_hint_y=None),
                    c["panel"])
        box.testid = f"thread_box_{t['thread']}"  # the GUI tests find each thread on the window
        if t["revealed"]:
            kind = KIND_NAMES.get(t["kind"] or "", "")
            state = f"[b]REVEALED[/b]\n[size={small}]{t['plan_name']} ({kind})[/size]"
        elif t["plan_name"] and s["phase"] == "over":  # everything is public once the game is over
            state = f"never revealed\n[size={small}]{t['plan_name']} ({KIND_NAMES.get(t['kind'] or '', '')})[/size]"
        elif t["deduction"]:
            state = "hidden\n[b]deduction token[/b]"
        else:
            state = "hidden"
        head = label(f"[b]Thread {t['thread']}[/b]\n{state}", halign="center")
        head.font_size = app.fs * sp(13)
        box.add_widget(head)
        public = t["plan"] and (t["revealed"] or s["phase"] == "over")  # a hidden plan's picture: Moriarty's hold only
        shown = picture_for("clash", t["plan"]) if public else None
        if shown:
            holder = BoxLayout(size_hint_y=None, height=dp(32))
            holder.add_widget(Widget())
            holder.add_widget(picture(shown, c["text"], 32))
            holder.add_widget(Widget())
            box.add_widget(holder)
        hol, mor = t["holmes"]["total"], t["moriarty"]["total"]
        if hol is not None:
            green = readable(SIDE_COLOURS["holmes"], c["panel"])
            red = readable(SIDE_COLOURS["moriarty"], c["panel"])
            big = int(app.fs * sp(24))
            totals = label(f"[color={green}][b][size={big}]{hol}[/size][/b][/color]  :  "
                           f"[color={red}][b][size={big}]{mor}[/size][/b][/color]", halign="center")
            totals.testid = f"total_{t['thread']}"  # the GUI tests find each thread's count on the window
            box.add_widget(totals)
            box.add_widget(Track(t["advantage"], c))
            adv = t["advantage"]
            lead = (f"[color={green}]Holmes +{adv}[/color]" if adv > 0 else
                    f"[color={red}]Moriarty +{-adv}[/color]" if adv < 0 else "even")
            box.add_widget(label(lead, halign="center"))
        for side in clash.SIDES:
            part = t[side]
            lines = []
            for card in part["cards"]:
                mark = " used" if card.get("used") else ""
                mark += " [i]cancelled[/i]" if card.get("distracted") else ""  # a distraction token on it
                value = f" {card['value']}" if "value" in card else ""
                name = card["name"].replace("-", "-\n")  # Cross-examination: too wide for a third of a phone
                lines.append(f"{name}{value}{mark}")
            if part["support"]:
                lines.append(f"+{part['support']} support")
            if part["bonus"]:
                lines.append(f"+{part['bonus']} agent")
            if lines:
                text = label("\n".join(lines), padding=(dp(8), 0, 0, 0))  # room on the left for the side's bar
                text.font_size = small  # after the kv rule, which sets every label's size
                colour_bar(text, SIDE_COLOURS[side], side="left", thick=4)
                box.add_widget(text)
        box.add_widget(Widget())  # the spare height of a shorter thread goes below its content
        return box

    def _players(self, s: dict[str, Any]) -> Any:
        box = column()
        left = s["actions_left"]
        for side in clash.SIDES:
            t = s["tables"][side]
            name = t["player"]
            bits = [f"{t['hand']} in hand", f"deck {t['deck']}", f"discards {t['discard']}"]
            if t["limit"] is not None:
                bits.insert(1, f"{t['in_play']} of {t['limit']} in play")
            if t["support"]:
                bits.append(f"{t['support']} support")
            agent = t.get("agent")
            if agent:
                if agent["active"]:
                    bits.append(f"agent {agent['active']} active")
                elif agent["face_down"]:
                    bits.append(f"agent face down, {agent['support']} under it")
            turn = ""
            if s["active"] == name and s["phase"] == "turns":
                acts = [] if not left.get("mandatory") else ["play a card"]
                opt = 3 - len(self.pad.state.optional)
                acts.append(f"{opt} optional left" if opt else "no optional left")
                turn = " · [b]to play:[/b] " + ", ".join(acts)
            if s["last_turn"] == name and s["phase"] == "turns":
                turn += " · last turn"
            line = label(f"[b]{name}[/b] ({clash.SIDE_NAMES[side]}){' · first' if s['first_player'] == name else ''}"
                         f"{turn}\n[size={int(self.app.fs * sp(12))}]{' · '.join(bits)}[/size]", padding=(dp(12), 0))
            colour_bar(line, SIDE_COLOURS[side], side="left", thick=8)
            active = self.pad.state.tables[side].agent if agent and agent["active"] else None
            top_picture(line, picture_for("clash", active), self.app.colors["text"], size=24, at="right")  # its card's
            line.testid = f"player_{side}"
            box.add_widget(line)
        return box

    def _conclusion(self, s: dict[str, Any]) -> Any:
        """The last Summary, thread by thread: the counts and what each did (tokens, hours, plans revealed)."""
        stage = s["conclusions"][-1]
        n = len(s["conclusions"])
        lines = [f"[b]Summary of Stage {n}[/b] ({s['sites_used'][n - 1]})"]
        plans = {p.name: p for p in clash.cards(self.session.db).plans.values()}
        for k in stage:
            lead = k["holmes"] - k["moriarty"]
            ahead = f"Holmes leads by {lead}" if lead > 0 else \
                f"Moriarty leads by {-lead}" if lead < 0 else "even, which this site counts as Holmes' by 1"
            what = {"deduction": f"{ahead}: a deduction token", "revealed": f"{ahead}: the thread is revealed",
                    "revealed_already": f"{ahead}, revealed already", "hour": f"{ahead}: +1 hour",
                    "two_hours": f"{ahead}: +2 hours", "tie_hour": "even: the site adds 1 hour",
                    "none": "even: nothing happens" if lead == 0 else f"{ahead}: nothing happens"}[k["outcome"]]
            line = f"Thread {k['thread']}: {k['holmes']} : {k['moriarty']}, {what}"
            if k["plan"]:
                plan = plans.get(k["plan"])
                line += f": [b]{k['plan']}[/b]" + (f" ({plan.thread}): {clash.crime_text(plan.effect)}" if plan else "")
            lines.append(line)
        return label("\n".join(lines))

    def _over(self, s: dict[str, Any]) -> Any:
        res = s["result"]
        head = f"{res['winner']} wins" if res["winner"] else "A draw: an unresolved duel"
        box = column(label(f"[b][size={int(self.app.fs * sp(22))}]{head}[/size][/b]"), label(res["why"]))
        plan = [f"Thread {t['thread']}: [b]{t['plan_name']}[/b] ({KIND_NAMES.get(t['kind'] or '', '')})"
                + ("" if t["revealed"] else ", never revealed") for t in s["threads"] if t["plan_name"]]
        if plan:  # the hidden crime plan, public once the game is over
            box.add_widget(label("[b]The crime plan[/b]\n" + "\n".join(plan)))
        return box

    # --- the input ---------------------------------------------------------------------------------

    def pad_widgets(self, s: dict[str, Any]) -> list[Any]:
        """The keys for what is tapped next, and the line saying so (in landscape the line leads the state, and the
        threads follow the keys: the clock and the players on the left, the threads the keys act on on the right)."""
        keys = self._keys(s) if s["phase"] != "over" else []
        if self.screen.landscape:
            return [*keys, self._threads(s)]
        return [*keys, self._line(self.pad.prompt())] if s["phase"] != "over" else []

    def _keys(self, s: dict[str, Any]) -> list[Any]:
        pad = self.pad
        need = pad.need()
        if need in ("lay", "thread", "to", "bonus"):
            return [self._thread_row(s, need)]
        hands = {"name": pad.laid[len(pad.named)][0] if need == "name" else "", "card": pad.side(),
                 "discarded": clash.other(pad.side())}
        if need in hands:
            return [self._hand(hands[need], "card")]
        if need == "use":
            return [self._in_play(pad.use_choices(), pad.side(), "use")]
        if need == "target":
            return [self._in_play(pad.targets(), pad.target_side(), "target")]
        if need == "agent":
            return [self._agents(pad.side())]
        if need == "action_card":
            return [self._action_cards(s)]
        if need == "take":
            return [self._takes()]
        return []

    def actions(self, s: dict[str, Any]) -> list[Any]:
        pad, screen, phase = self.pad, self.screen, s["phase"]
        clear = button("Clear", "clear", lambda: screen.then(pad.clear_action), flat=True)
        if phase == "plan":
            return [button(f"{s['moriarty']}: enter the plan alone", "plan", self._plan_page)]
        if phase == "site":
            out = [button("Tap the site", "pick_site", self._site_page),
                   button("Deal a site", "deal_site", lambda: screen.do(pad.deal_site()), flat=True)]
            if s["stage"]:
                out.append(button("Discard", "discard", self._discard_page, flat=True))
            if any((s["tables"][side].get("agent") or {}).get("face_down") for side in clash.SIDES):
                out.append(button("Replace agent", "replace_agent", self._replace_page, flat=True))
            return out
        if phase == "setup":
            back = button("Take back", "take_back", lambda: screen.then(pad.take_back), flat=True)
            back.disabled = not pad.laid
            record = button("Record setup", "record_setup", lambda: screen.do(pad.record_setup()))
            record.disabled = len(pad.named) < 6
            return [back, record]
        if phase == "final_place":
            return [button(f"{s['active']}: place a card alone", "place", self._place_page)]

        def mode(m: str) -> Any:
            return lambda: self._tap(pad.choose_mode, m)

        def agent_key() -> Any:
            agent = s["tables"][pad.side()].get("agent") or {}
            act = button("Agent", "agent", mode("agent"), flat=pad.mode != "agent")
            act.disabled = not agent.get("face_down")
            return act

        if phase == "final_reveal":
            keys = [agent_key()] if s["variants"] else []
            return [*keys, clear] if pad.has_draft() else keys
        if phase != "turns":
            return []
        left = s["actions_left"]

        support = button("Support", "support", mode("support"), flat=pad.mode != "support")
        use = button("Use", "use", mode("use"), flat=pad.mode != "use")
        draw = button("Draw", "draw", mode("draw"), flat=True)
        barred = pad.barred()
        support.disabled, use.disabled, draw.disabled = (not left.get("support") or "support" in barred,
                                                         not left.get("use"), not left.get("draw") or "draw" in barred)
        out = [support, use, draw, *([agent_key()] if s["variants"] else [])]
        end = button("End turn", "end_turn", mode("end"))
        end.disabled = pad.must_play()
        return one_line([*out, end] if not pad.has_draft() else [*out, clear])

    def secrets(self, s: dict[str, Any]) -> dict[str, str]:
        if s["phase"] == "over":
            return {}
        out: dict[str, str] = {}
        plan = [t for t in s["threads"] if t["plan"] and not t["revealed"]]
        if plan:
            plans = clash.cards(self.session.db).plans
            out[s["moriarty"]] = "Your Crime Plan (hidden threads):\n" + "\n".join(
                f"Thread {t['thread']}: [b]{t['plan_name']}[/b] ({t['kind']}): {clash.crime_text(plans[t['plan']].effect)}"
                for t in plan)
        for side in clash.SIDES:
            placed = s["final_turn"].get(side) or []
            hidden = [p for p in placed if not p["revealed"]]
            if hidden:
                name = s[side]
                text = "Your Action Cards face down:\n" + "\n".join(f"{p['card']} in thread {p['thread']}"
                                                                      for p in hidden)
                out[name] = f"{out[name]}\n\n{text}" if name in out else text
        return out

    def secret_pictures(self, s: dict[str, Any]) -> dict[str, list[str]]:
        """The hidden Crime Plan cards' pictures, thread by thread, in Moriarty's hold only."""
        if s["moriarty"] not in self.secrets(s):
            return {}
        hidden = [picture_for("clash", t["plan"]) for t in s["threads"] if t["plan"] and not t["revealed"]]
        return {s["moriarty"]: [p for p in hidden if p]}

    def has_draft(self) -> bool:
        return self.pad.has_draft()

    def clear(self) -> None:
        """Back in the Initial Setup takes back the last card laid or named, not all twelve taps at once (an undo
        leaves the setup first, so it still clears everything)."""
        if self.pad.state.phase == "setup" and self.pad.laid:
            self.pad.take_back()
            self.message = ""
            return
        super().clear()

    # --- pad parts ---------------------------------------------------------------------------------

    def _small(self) -> int:
        """The size of the table's smallest text (a card's value under its name, the thread boxes' card lists)."""
        return int(self.app.fs * sp(SMALL_SP))

    def _grid(self, cols: int) -> GridLayout:
        grid = GridLayout(cols=cols, size_hint_y=None, spacing=dp(3))
        grid.bind(minimum_height=grid.setter("height"))
        return grid

    def _tile(self, text: str, testid: str, action: Any, lit: bool = False, disabled: bool = False,
              height: float = 52) -> Tile:
        """A pad key; greyed out, a tap still runs `action`, whose refusal says why it cannot be done."""
        tile = GreyTile(text=text, testid=testid, flat=not lit, markup=True, height=dp(height) * max(1.0, self.app.fs),
                        font_size=self.app.fs * sp(12), disabled=disabled)
        tile.on_grey = action
        tile.valign = "middle"
        tile.bind(on_release=lambda *_: action())
        return tile

    def _site_page(self) -> None:
        """The site revealed from the site deck, tapped by name (those of earlier Stages greyed out)."""
        pad = self.pad
        body = self.screen.start_page()
        body.add_widget(label(f"[b]Stage {pad.state.stage + 1}[/b]: reveal the top Investigation Site and tap it."))
        grid = self._grid(2)
        used = set(pad.state.sites_used) if len(pad.state.sites_used) < len(pad.cards.sites) else set()
        for site in pad.cards.sites.values():
            key = self._tile(f"[b]{site.name}[/b]\n+{site.hours}h · limit {site.limit}", f"site_{site.id}",
                             lambda sid=site.id: self._tap(pad.tap_site, sid), disabled=site.id in used, height=48)
            top_picture(key, picture_for("clash", site.id), self.app.colors["text"], size=16, at="corner")
            grid.add_widget(key)
        body.add_widget(grid)

    def _thread_row(self, s: dict[str, Any], need: str) -> GridLayout:
        pad = self.pad
        grid = self._grid(3)
        source = pad.choice.get("target_thread")
        laid = pad.laid_note() if need == "lay" else {}
        for i in range(3):
            t = s["threads"][i]
            note = laid.get(i) or ("revealed" if t["revealed"] else "hidden")
            tile = self._tile(f"[b]Thread {i + 1}[/b]\n{note}", f"thread_{i + 1}",
                              lambda i=i: self._tap(pad.tap_thread, i), height=56,
                              disabled=need == "to" and source == i + 1)
            grid.add_widget(tile)
        if need == "thread" and pad.mode == "support" and s["variants"]:
            me = s["tables"][pad.side()].get("agent") or {}
            under = self._tile("Under the Agent", "support_agent", lambda: self._tap(pad.support_agent), height=48,
                               disabled=not me.get("face_down"))
            grid.add_widget(under)
        return grid

    def _hand(self, side: str, prefix: str) -> GridLayout:
        """A side's ten card designs (those whose every copy is seen greyed out): what is in the hand."""
        pad, wide = self.pad, self.screen.landscape
        grid = self._grid(4 if wide else 3)  # three rows of four in a landscape pad's short column
        small = self._small()
        for card in pad.designs(side):
            # four narrow keys a row in landscape: a long word breaks at its hyphen rather than shrink under 12 sp
            text = card.name.replace("-", "-\n") if wide else \
                f"{card.name}\n[size={small}]{card.value} · used {card.used_value}[/size]"
            grid.add_widget(self._tile(text, f"{prefix}_{card.id}", lambda cid=card.id: self._tap(pad.tap_card, cid),
                                       lit=pad.card == card.id, disabled=not pad.playable(side, card.id),
                                       height=48 if wide else 52))
        return grid

    def _in_play(self, found: list[tuple[int, str]], side: str, prefix: str) -> GridLayout:
        pad = self.pad
        grid = self._grid(3)
        names = pad.cards.influence[side]
        for thread, cid in found:
            grid.add_widget(self._tile(f"{names[cid].name}\n[size={self._small()}]thread {thread + 1}"
                                       "[/size]", f"{prefix}_{thread + 1}_{cid}",
                                       lambda t=thread, c=cid: self._tap(pad.tap_in_play, t, c)))
        if not found:
            grid.add_widget(label("No card to pick.", muted=True))
        return grid

    def _agents(self, side: str) -> GridLayout:
        pad = self.pad
        grid = self._grid(2)
        t = pad.state.tables[side]
        for agent in pad.cards.agents[side].values():
            key = self._tile(f"{agent.name}\n[size={self._small()}]cost {agent.cost}[/size]", f"agent_{agent.id}",
                             lambda a=agent.id: self._tap(pad.tap_agent, a),
                             disabled=agent.id in t.agent_discard or t.agent_support < agent.cost)
            top_picture(key, picture_for("clash", agent.id), self.app.colors["text"], size=16, at="corner")
            grid.add_widget(key)
        return grid

    def _action_cards(self, s: dict[str, Any]) -> GridLayout:
        pad = self.pad
        me = pad.side()
        grid = self._grid(2)
        done = pad.state.revealed_actions.get(me, [])
        for card in clash.ACTION_CARDS:
            grid.add_widget(self._tile(clash.ACTION_CARD_NAMES[card], f"reveal_{card}",
                                       lambda c=card: self._tap(pad.reveal, c), disabled=card in done, height=48))
        return grid

    def _takes(self) -> GridLayout:
        pad = self.pad
        me = pad.side()
        card = str(pad.action_card)
        thread = dict(pad.state.placed[me])[card]
        grid = self._grid(3)
        barred = pad.barred()
        for take in (*clash.ACTION_CARD_SHOWS[card], "skip"):
            why = pad.take_refusal(take)  # greyed with its reason: at the limit, no upright card, an empty hand
            under = why if why is not None and take not in barred else f"thread {thread + 1}"
            grid.add_widget(self._tile(f"{TAKE_WORDS[take]}\n[size={self._small()}]{under}"
                                       "[/size]" if take != "skip" else "Skip", f"take_{take}",
                                       lambda k=take: self._tap(pad.choose_take, k), height=52,
                                       disabled=why is not None))
        return grid

    # --- pages: what one player enters alone -------------------------------------------------------

    def _plan_page(self) -> None:
        pad = self.pad
        body = self.screen.start_page(on_cancel=pad.clear_plan)  # Back and Cancel agree
        body.add_widget(label(f"[b]{pad.who('moriarty')} only[/b] ({pad.who('holmes')} looks away): tap the Crime "
                              "Plan card you laid in thread 1, then 2, then 3 (one victim, one felony, one object)."))
        grid = self._grid(2)
        for plan in pad.cards.plans.values():
            lit = plan.id in pad.plan
            text = (f"{pad.plan.index(plan.id) + 1}. " if lit else "") + f"{plan.name}\n" \
                f"[size={self._small()}]{plan.thread}[/size]"
            grid.add_widget(self._tile(text, f"plan_{plan.id}", lambda p=plan.id: self._page_tap(pad.tap_plan, p),
                                       lit=lit))
        body.add_widget(grid)
        if pad.message:
            body.add_widget(label(pad.message, color=rgba(self.app.colors["error"])))
        lay = button("Lay the plan", "plan_lay", lambda: self.screen.do(pad.lay_plan()))
        lay.disabled = len(pad.plan) < 3
        body.add_widget(lay)

    def _page_tap(self, tap: Any, *args: Any) -> None:
        tap(*args)
        self._plan_page()

    def _place_page(self) -> None:
        pad = self.pad
        st = pad.state
        me = st.active
        body = self.screen.start_page()
        body.add_widget(label(f"[b]{pad.who(me)} only[/b] ({pad.who(clash.other(me))} looks away): which Action "
                              "Card did you lay face down, and in which thread? One tap records it."))
        placed = [c for c, _t in st.placed.get(me, [])]
        for card in clash.ACTION_CARDS:
            if card in placed:
                continue
            body.add_widget(label(f"[b]{clash.ACTION_CARD_NAMES[card]}[/b]: "
                                  f"{' or '.join(TAKE_WORDS[a].lower() for a in clash.ACTION_CARD_SHOWS[card])}"))
            row = self._grid(3)
            for i in range(3):
                row.add_widget(button(f"Thread {i + 1}", f"place_{card}_{i + 1}",
                                      lambda c=card, i=i: self.screen.do(pad.place(c, i)), flat=True))
            body.add_widget(row)

    def _replace_page(self) -> None:
        """Archiving in the Agent mode: a player may put the face-down Agent back under the Agent deck."""
        pad = self.pad
        body = self.screen.start_page()
        body.add_widget(label("[b]Archiving[/b]: an Agent not activated may stay face down, or go back under the "
                              "Agent deck (another is drawn at the next Site). Who puts theirs back?"))
        for side in clash.SIDES:
            t = pad.state.tables[side]
            if t.agent_here and not t.agent:
                body.add_widget(button(f"{pad.who(side)}: put it back", f"replace_{side}",
                                       lambda sd=side: self.screen.do(pad.replace_agent(sd)), flat=True))

    def _drop(self, side: str, cid: str) -> None:
        self.pad.toggle_discard(side, cid)
        self._discard_page(side)

    def _discard_page(self, side: str | None = None) -> None:
        """Archiving: a player discards any cards from hand (seen by all), before the next site."""
        pad = self.pad
        body = self.screen.start_page(on_cancel=pad.discarding.clear)  # Back and Cancel agree
        if side is None:
            body.add_widget(label("[b]Archiving[/b]: a player may discard any cards left in hand. Who discards?"))
            for s in clash.SIDES:
                body.add_widget(button(f"{pad.who(s)} ({pad.state.tables[s].hand} in hand)", f"discard_{s}",
                                       lambda s=s: self._discard_page(s), flat=True))
            return
        mine = pad.discarding.get(side, [])
        body.add_widget(label(f"[b]{pad.who(side)}[/b] discards: " + (", ".join(
            pad.cards.influence[side][c].name for c in mine) or "tap the cards")))
        grid = self._grid(3)
        for card in pad.designs(side):
            grid.add_widget(self._tile(card.name, f"drop_{card.id}", lambda c=card.id: self._drop(side, c),
                                       lit=card.id in mine))
        body.add_widget(grid)
        done = button("Discard these", "discard_record", lambda: self.screen.do(pad.record_discard(side)))
        done.disabled = not mine
        body.add_widget(done)
