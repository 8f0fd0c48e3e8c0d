"""Hasty on the shared phone: a card that must (or can't) go on its player's own suspect is not checked by the
table, because any check would tell whose suspect is whose. The same taps give the same words, refusals and
history whoever owns the suspect played on (README: "Refusals never say whose suspect is whose")."""

from __future__ import annotations

from casebook.companion.history import history
from casebook.companion.session import Session
from casebook.companion.store import Store
from casebook.companion.tables.hasty.pad import HastyPad
from casebook.rules.cards import load_database
from casebook.rules.log import GameLog

ROW = ["dorian_fitch", "marguerite_lowe", "cornelius_brandt", "hattie_quill", "silas_penhallow"]
# Ann's suspect is Dorian Fitch (under the loupe at the start) in one game, Marguerite Lowe in the other
OWNERS = [{"Ann": "dorian_fitch", "Ben": "marguerite_lowe", "Cat": "cornelius_brandt"},
          {"Ann": "marguerite_lowe", "Ben": "dorian_fitch", "Cat": "cornelius_brandt"}]


def table(tmp_path, secrets: dict[str, str], n: int, traitor: bool = False) -> tuple[Session, HastyPad]:
    db = load_database("hasty")
    variants, row = (["no_safe_round", "traitor"], [*ROW, "ottoline_vesey", "barnaby_crewe"]) if traitor \
        else (["no_safe_round"], ROW)
    log = GameLog("hasty", db.rules_version, ["Ann", "Ben", "Cat"], variants, None,
                  {"sets": ["base"], "row": row, "secrets": secrets})
    session = Session.new(db, log, Store(tmp_path / str(n)))
    return session, HastyPad(session)


def seen(session: Session, pad: HastyPad, outcomes: list) -> list[str]:
    """What the shared screen can tell from these taps: outcomes, the prompt, History, the last event's words."""
    lines = [f"{o.ok}: {o.message}" if o is not None else "-" for o in outcomes]
    lines += [pad.prompt(), *(line.text for g in history(session) for line in g.lines)]
    return lines + list(session.summary(None)["history"])


def taps(pad: HastyPad, card: str) -> list:
    """Ann plays `card` face up at the loupe (Dorian Fitch); a card that needs a suspect takes Hattie Quill."""
    out = [pad.tap_suspect("dorian_fitch"), pad.tap_card(card)]
    if pad.card is not None:
        out.append(pad.choose("hattie_quill"))
    return out


def test_an_own_suspect_restriction_is_not_checked_at_the_shared_table(tmp_path):
    for card in ("family_lawyer", "filing_mixup"):
        told = []
        for n, secrets in enumerate(OWNERS):
            session, pad = table(tmp_path / card, secrets, n)
            outcomes = taps(pad, card)
            told.append(seen(session, pad, outcomes))
            assert outcomes[-1] is not None and outcomes[-1].ok, outcomes[-1]  # the player's to keep, as at a table
        assert told[0] == told[1], card
        assert not any("own suspect" in line for line in told[0])


def test_a_card_stuck_in_hand_is_taken_on_the_players_word_when_only_its_owner_could_say(tmp_path):
    """'Can't play anywhere' with a Family Lawyer: only a Traitor could say so truly, so a refusal would clear the
    player; it is accepted alike for everyone (the hand is shown to the table, as at a physical table)."""
    told = []
    for n, secrets in enumerate([{"Ann": "dorian_fitch", "Ben": "marguerite_lowe", "Cat": "traitor"},
                                 {"Ann": "traitor", "Ben": "marguerite_lowe", "Cat": "dorian_fitch"}]):
        session, pad = table(tmp_path, secrets, n, traitor=True)
        out = pad.stuck("family_lawyer")
        told.append(seen(session, pad, [out]))
    assert told[0] == told[1]
