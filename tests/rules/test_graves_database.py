"""The Graves card database against the rulebook's facts (checked by arithmetic)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from casebook.rules.games.graves import EFFECTS, card_value, time_tokens_needed


def test_component_counts_match_the_rulebook(graves_db):
    counts = {cid: comp.printed for cid, comp in graves_db.components.items()}
    assert counts == {"detective": 45, "mastermind": 45, "locations": 12, "identities": 5, "evidence": 10,
                      "time_tokens": 28, "trump_tokens": 10}


def test_decks_are_five_suits_by_nine_ranks_with_deuce_abilities(graves_db):
    for deck in ("detective", "mastermind"):
        cards = graves_db.components[deck].cards
        assert len({(c["suit"], c["rank"]) for c in cards}) == 45
        assert {c["suit"] for c in cards} == set(graves_db.suits)
        deuces = [c for c in cards if c["rank"] == 2]
        assert all(c["ability"]["effect"]["kind"] == "change_trump" for c in deuces)
        designed = [c for c in cards if c.get("ability") and c["rank"] != 2]
        assert len(designed) >= 8
        assert all(c["ability"]["effect"]["kind"] in EFFECTS for c in designed)
        assert all(c.get("flavour") for c in cards)
        assert all(c.designed for c in cards)


def test_ace_is_worth_ten():
    assert card_value("A") == 10 and card_value(7) == 7


def test_evidence_is_every_choice_of_three_viable(graves_db):
    ids = [c.id for c in graves_db.components["identities"].cards]
    viable = {frozenset(c["viable"]) for c in graves_db.components["evidence"].cards}
    assert viable == {frozenset(v) for v in combinations(ids, 3)}
    per_identity = Counter(i for v in viable for i in v)
    assert set(per_identity.values()) == {6}  # the "6 cards" of the setup


def test_twenty_eight_time_tokens_suffice_for_any_five_locations(graves_db):
    locs = graves_db.components["locations"].cards
    worst = 0
    for row in combinations(locs, 5):
        slums = [c["effect"]["kind"] == "slums_time" for c in row]
        order = sorted(range(5), key=lambda i: not slums[i])
        worst = max(worst, time_tokens_needed([row[i]["clocks"] for i in order], [slums[i] for i in order]))
    assert worst == 28


def test_twelve_locations_with_the_glossary_clocks_and_the_strongroom_ruling(graves_db):
    locs = {c.id: c for c in graves_db.components["locations"].cards}
    assert len(locs) == 12
    assert locs["bank_vault"]["clocks"] == 5 and locs["bank_strongroom"]["clocks"] == 7
    assert locs["bank_strongroom"].designed
    assert locs["alley"]["trump"] is None and locs["river"]["trump"] is None
    faq_ids = {f.id for f in graves_db.faq}
    assert "faq_bank_strongroom" in faq_ids


def test_faq_covers_the_open_questions(graves_db):
    text = " ".join((f.question + " " + f.ruling).lower() for f in graves_db.faq)
    for topic in ("clock", "alley", "park", "palace grounds", "deuce"):
        assert topic in text, topic
    assert len(graves_db.rules) >= 40
