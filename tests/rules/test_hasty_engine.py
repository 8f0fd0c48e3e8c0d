"""Hasty Accusations: worked examples of our own from the rules (cards/hasty/rules.yaml), one rule each."""

from __future__ import annotations

import pytest

from casebook.rules.engine import IllegalAction
from casebook.rules.games import hasty as h

ROW = ["dorian_fitch", "marguerite_lowe", "cornelius_brandt", "hattie_quill", "silas_penhallow"]
SECRETS = {"Ann": "dorian_fitch", "Ben": "marguerite_lowe", "Cat": "cornelius_brandt"}


@pytest.fixture(scope="module")
def db():
    from casebook.rules.cards import load_database

    return load_database("hasty")


def game(db, players=("Ann", "Ben", "Cat"), secrets=None, variants=(), sets=("base",), row=ROW):
    secrets = secrets or {p: SECRETS[p] for p in players}
    return h.new_state(db, {"players": list(players), "variants": list(variants), "sets": list(sets),
                            "row": list(row), "secrets": secrets})


def play(state, by, at, card=None, **choice):
    event = {"action": "play", "by": by, "at": at, **({"card": card} if card else {}), **choice}
    h.apply(state, event)
    return state


def reveal(state, card=None, **choice):
    h.apply(state, {"action": "reveal", "by": state.players[state.active], **({"card": card} if card else {}),
                    **choice})
    return state


def pile(state, sid):
    return len(state.piles[sid])


def first_pass(state, at="hattie_quill"):
    """Five face-down plays by turn (none at the loupe): the safe first pass of the loupe."""
    for _ in range(5):
        who = state.players[state.active]
        target = at if state.row.index(at) != state.loupe else "silas_penhallow"
        play(state, who, target)


def test_the_first_pass_of_the_loupe_is_safe(db):
    state = game(db)
    first_pass(state)
    assert state.phase == "play" and state.loupe == 0
    assert "first round is safe" in state.history[-1]
    assert pile(state, "hattie_quill") == 4 and pile(state, "silas_penhallow") == 1
    assert state.players[state.active] == "Cat"  # five turns: Ann Ben Cat Ann Ben


def test_without_the_safe_round_the_first_pass_reviews(db):
    state = game(db, variants=["no_safe_round"])
    first_pass(state)
    assert state.phase == "reveal" and state.review.suspect == "hattie_quill"


def test_a_review_reveals_the_largest_pile_top_down_and_a_murder_eliminates(db):
    state = game(db, variants=["no_safe_round"])
    play(state, "Ann", "marguerite_lowe")   # bottom
    play(state, "Ben", "silas_penhallow")
    play(state, "Cat", "marguerite_lowe")   # top
    play(state, "Ann", "silas_penhallow")
    play(state, "Ben", "cornelius_brandt")  # the loupe passes the last suspect: review
    assert state.phase == "pick" and state.tied == ["marguerite_lowe", "silas_penhallow"]
    with pytest.raises(IllegalAction, match="Ben picks the pile"):
        h.apply(state, {"action": "pick", "by": "Ann", "pile": "marguerite_lowe"})
    with pytest.raises(IllegalAction, match="not among the largest"):
        h.apply(state, {"action": "pick", "by": "Ben", "pile": "cornelius_brandt"})
    h.apply(state, {"action": "pick", "by": "Ben", "pile": "Marguerite Lowe"})
    reveal(state, "Bitter Almonds")      # Cat's card, on top: 1 of 2
    assert state.phase == "reveal" and "1 of 2" in state.said[-1]
    reveal(state, "letter_opener")       # Ann's: murder
    assert "marguerite_lowe" in state.dead and state.out == [False, True, False]
    assert state.hands[1] == 0 and "Ben is eliminated and discards their hand" in state.history[-1]
    assert state.loupe == 0 and state.phase == "play" and state.players[state.active] == "Cat"
    assert state.row == ["dorian_fitch", "cornelius_brandt", "hattie_quill", "silas_penhallow"]


def test_a_face_up_protect_card_blocks_murders_in_a_later_review(db):
    state = game(db, variants=["no_safe_round"])
    play(state, "Ann", "hattie_quill")
    play(state, "Ben", "hattie_quill")
    play(state, "Cat", "hattie_quill")
    play(state, "Ann", "hattie_quill", card="solid_alibi")  # the loupe is on Hattie: face up
    assert state.piles["hattie_quill"][-1].face_up
    play(state, "Ben", "dorian_fitch")
    assert state.review.suspect == "hattie_quill"
    # the face-up Alibi on top is passed over: the three face-down cards come next
    reveal(state, "letter_opener")
    assert "protected" in state.said[-1] and "hattie_quill" in state.row
    reveal(state, "letter_opener")
    reveal(state, "fresh_lead")
    assert state.phase == "play" and state.piles["hattie_quill"] == [] and "hattie_quill" in state.row


def test_restrictions_are_enforced_when_played_and_when_revealed_except_the_secret_ones(db):
    state = game(db)
    with pytest.raises(IllegalAction, match="Letter Opener can't be played at the loupe"):
        play(state, "Ann", "dorian_fitch", card="letter_opener")
    with pytest.raises(IllegalAction, match="Wrong Turning must be played at the loupe"):
        play(state, "Ann", "hattie_quill", card="wrong_turning")
    # whose suspect is whose is secret: the table does not check the own-suspect restrictions (the player keeps them)
    assert h.check(state, {"action": "play", "by": "Ann", "at": "hattie_quill", "card": "family_lawyer"}) is None
    with pytest.raises(IllegalAction, match="has the loupe: the card is played face up"):
        play(state, "Ann", "dorian_fitch")
    with pytest.raises(IllegalAction, match="it is Ann's turn"):
        play(state, "Ben", "hattie_quill")
    # Ben's Filing Mix-up face up on his own suspect: not refused (a refusal would tell the table it is his)
    state = game(db, variants=["no_safe_round"])
    play(state, "Ann", "marguerite_lowe", card="village_gossip")
    assert h.check(state, {"action": "play", "by": "Ben", "at": "marguerite_lowe", "card": "filing_mixup",
                           "target": "hattie_quill"}) is None
    state = game(db, variants=["no_safe_round"])
    play(state, "Ann", "hattie_quill")
    play(state, "Ben", "dorian_fitch")
    play(state, "Cat", "dorian_fitch")
    play(state, "Ann", "dorian_fitch")
    play(state, "Ben", "hattie_quill")
    assert state.review.suspect == "dorian_fitch"
    # a face-down card is checked once it is revealed, for the loupe's restrictions only: Ann's Filing Mix-up on
    # her own suspect is revealed like any card
    assert h.check(state, {"action": "reveal", "by": state.players[state.active], "card": "filing_mixup",
                           "target": "silas_penhallow"}) is None
    with pytest.raises(IllegalAction, match="Wrong Turning must be played at the loupe"):
        reveal(state, "wrong_turning")


def test_a_choice_in_a_review_is_the_active_players_and_moves_the_cards_under(db):
    state = game(db, variants=["no_safe_round"])
    play(state, "Ann", "hattie_quill")
    play(state, "Ben", "hattie_quill")
    play(state, "Cat", "hattie_quill")  # Cat's card on top
    play(state, "Ann", "silas_penhallow")
    play(state, "Ben", "dorian_fitch")  # Ben's turn ends with the review of Hattie
    with pytest.raises(IllegalAction, match="needs the active player's choice: target"):
        reveal(state, "filing_mixup")
    with pytest.raises(IllegalAction, match="Cat reveals|Ben reveals"):
        h.apply(state, {"action": "reveal", "by": "Cat", "card": "filing_mixup", "target": "dorian_fitch"})
    reveal(state, "filing_mixup", target="dorian_fitch")
    assert pile(state, "dorian_fitch") == 3  # Ben's own card, then the two moved under it... on top of it
    assert state.phase == "play" and "hattie_quill" in state.row and state.piles["hattie_quill"] == []
    assert "2 cards moved onto Dorian Fitch" in state.history[-1]


def test_a_murder_at_the_loupe_of_the_last_suspect_is_followed_by_a_review(db):
    state = game(db, sets=["expert"], variants=["no_safe_round"])
    for who in ("Ann", "Ben", "Cat", "Ann"):
        play(state, who, "cornelius_brandt" if who != "Cat" else "hattie_quill")
    play(state, "Ben", "silas_penhallow", card="falling_chandelier")  # face up at the loupe: Silas dies
    assert "silas_penhallow" in state.dead and "Falling Chandelier" in state.history[-1]
    # the loupe has passed the last suspect: the largest pile (Cornelius, 3) is reviewed
    assert state.phase == "reveal" and state.review.suspect == "cornelius_brandt"


def test_a_murder_at_the_loupe_of_another_suspect_lets_the_next_one_move_up_under_the_loupe(db):
    state = game(db, sets=["expert"], variants=["no_safe_round"])
    state.loupe = 1  # the loupe on Marguerite (Ben's)
    play(state, "Ann", "marguerite_lowe", card="veiled_guard")  # face up: Marguerite is protected
    play(state, "Ben", "hattie_quill")
    state.loupe = 1
    play(state, "Cat", "marguerite_lowe", card="falling_chandelier")  # murders even if protected
    assert "marguerite_lowe" in state.dead and state.out[1]
    assert state.row[state.loupe] == "cornelius_brandt"  # moved up into the gap: that was the loupe's step


def test_an_eliminated_players_cards_stay_in_their_piles(db):
    state = game(db, variants=["no_safe_round"])
    play(state, "Ann", "marguerite_lowe")
    play(state, "Ben", "hattie_quill")       # Ben's card stays after he is out
    play(state, "Cat", "marguerite_lowe")
    play(state, "Ann", "marguerite_lowe")
    play(state, "Ben", "cornelius_brandt")
    reveal(state, "letter_opener")
    assert state.out[1] and pile(state, "hattie_quill") == 1 and state.piles["hattie_quill"][0].by == 1
    assert state.players[state.active] == "Cat"
    play(state, "Cat", "hattie_quill")
    assert state.players[state.active] == "Ann"  # Ben's turns are skipped


def test_an_empty_deck_reshuffles_the_discards_and_without_them_players_pass(db):
    state = game(db)
    state.deck, state.discards = 0, 5
    play(state, "Ann", "hattie_quill")
    assert state.reshuffles == 1 and state.hands[0] == 4 and state.deck == 4
    state.deck, state.discards = 0, 0
    play(state, "Ben", "hattie_quill")
    assert state.hands[1] == 3
    state.hands = [0, 3, 1]
    play(state, "Cat", "hattie_quill")
    assert state.players[state.active] == "Ben"  # Ann has no card: she passes
    state.hands = [0, 1, 0]
    play(state, "Ben", "silas_penhallow")
    assert h.is_over(state) and h.result(state)["winners"] == ["Ann", "Ben", "Cat"]


def test_the_traitor_wins_when_the_others_are_out_and_loses_with_one_suspect_left(db):
    secrets = {"Ann": "traitor", "Ben": "marguerite_lowe"}
    state = game(db, players=("Ann", "Ben"), secrets=secrets, variants=["traitor", "no_safe_round"])
    # the Traitor may not play a Family Lawyer (faq_traitor_own), but the table does not check it: a refusal would
    # tell everyone who the Traitor is
    assert h.check(state, {"action": "play", "by": "Ann", "at": "hattie_quill", "card": "family_lawyer"}) is None
    for who in ("Ann", "Ben", "Ann", "Ben", "Ann"):
        play(state, who, "marguerite_lowe" if state.row.index("marguerite_lowe") != state.loupe else "hattie_quill")
    assert state.review.suspect == "marguerite_lowe"
    reveal(state, "letter_opener")
    assert h.is_over(state) and h.result(state)["winner"] == "Ann" and "Traitor and wins" in state.why
    # one suspect left: the Traitor loses and the other player wins
    state = game(db, players=("Ann", "Ben"), secrets={"Ann": "traitor", "Ben": "dorian_fitch"},
                 variants=["traitor", "no_safe_round"], row=ROW)
    state.row = ["dorian_fitch", "hattie_quill"]
    state.piles = {"dorian_fitch": [], "hattie_quill": [h.Entry(None, False, 1, "hattie_quill")] * 2}
    state.loupe = 1
    play(state, "Ann", "dorian_fitch")
    reveal(state, "letter_opener")
    assert h.result(state)["winner"] == "Ben" and "reveals the Traitor and loses" in state.history[-1]


def test_suspect_powers_on_play_and_on_death(db):
    state = game(db, variants=["powers", "no_safe_round"])
    play(state, "Ann", "hattie_quill")
    play(state, "Ben", "hattie_quill")  # Hattie: the bottom card of her pile is discarded unseen
    assert pile(state, "hattie_quill") == 1 and state.piles["hattie_quill"][0].by == 1
    play(state, "Cat", "marguerite_lowe")  # Marguerite: its player draws a card after drawing back up
    assert state.hands[2] == 5
    play(state, "Ann", "dorian_fitch")
    play(state, "Ben", "dorian_fitch")  # review: Dorian and Hattie? Dorian 2 is the largest
    assert state.review.suspect == "dorian_fitch"
    reveal(state, "letter_opener")  # Dorian dies: the turn order is reversed
    assert state.direction == -1 and state.out[0]
    assert state.players[state.active] == "Cat"  # after Ben, reversed: Ann, who is out, then Cat
    assert "reverse the turn order" in state.history[-1]


def test_a_review_card_at_the_loupe_calls_off_the_next_review(db):
    state = game(db, variants=["no_safe_round"])
    play(state, "Ann", "dorian_fitch", card="court_recess")
    play(state, "Ben", "hattie_quill")
    play(state, "Cat", "hattie_quill")
    play(state, "Ann", "silas_penhallow")
    assert h.summary(state)["called_off"] == 1  # the table shows it until the review it calls off
    play(state, "Ben", "hattie_quill")
    assert state.phase == "play" and state.loupe == 0 and "called off" in state.history[-1]
    assert h.summary(state)["called_off"] == 0


def test_a_player_with_no_playable_card_discards_one(db):
    state = game(db, players=("Ann", "Ben"), secrets={"Ann": "traitor", "Ben": "dorian_fitch"}, variants=["traitor"])
    with pytest.raises(IllegalAction, match="can be played"):
        h.apply(state, {"action": "stuck", "by": "Ann", "card": "letter_opener"})
    h.apply(state, {"action": "stuck", "by": "Ann", "card": "family_lawyer"})
    assert state.hands[0] == 4 and state.discards == 1 and state.loupe == 1 and state.active == 1


def test_views_show_only_the_viewers_own_secret(db):
    state = game(db, variants=["no_safe_round"])
    for p, name in enumerate(state.players):
        seen = h.view(state, p)
        assert seen["secret"] == h.suspects(db)[SECRETS[name]].name
        others = [h.suspects(db)[SECRETS[o]].name for o in state.players if o != name]
        assert not any(r["owner"] not in (None, name) for r in seen["row"])
        assert not any(n in str(seen["known_secrets"]) for n in others)
    play(state, "Ann", "marguerite_lowe", card=None)
    assert h.view(state, 1)["row"][1]["face_up"] == []


def test_card_texts_are_made_from_the_effects(db):
    assert h.effect_text({"op": "murder", "copies": 2}, "Bitter Almonds") == (
        "Murder, if 2 or more Bitter Almonds cards are revealed in this pile: this suspect dies, unless protected.")
    for card in db.components["actions"].cards:
        assert card["text"] == h.effect_text(dict(card["effect"]), card["name"])


def test_every_rule_a_refusal_names_is_an_entry_of_the_rules(db):
    """A refusal's rule id leads to the rule or FAQ ruling in cards/hasty/rules.yaml (the app opens it)."""
    import re
    from pathlib import Path

    ids = set(re.findall(r'Rule\([^)]*?"([a-z0-9_]+)"\)', Path(h.__file__).read_text()))
    entries = {r.id for r in db.rules} | {f.id for f in db.faq}
    assert len(ids) >= 9 and ids <= entries, sorted(ids - entries)


EXPERT_ROW = ["hattie_quill", "silas_penhallow", "dorian_fitch", "marguerite_lowe", "cornelius_brandt"]


def test_a_card_whose_copies_all_lie_on_the_table_or_in_the_discards_cannot_be_played(db):
    """cards_copies (found by the referee): the expert set has 2 Falling Chandeliers and 2 Keyholes."""
    state = game(db, sets=["expert"], row=EXPERT_ROW)
    play(state, "Ann", "hattie_quill", "Falling Chandelier")   # murdered: the pile, chandelier and all, is discarded
    play(state, "Ben", "silas_penhallow", "Falling Chandelier")
    assert state.seen == ["falling_chandelier", "falling_chandelier"] and state.row[state.loupe] == "dorian_fitch"
    with pytest.raises(IllegalAction, match="all 2 copies") as refused:
        play(state, "Cat", "dorian_fitch", "Falling Chandelier")
    assert refused.value.rule.id == "cards_copies"
    play(state, "Cat", "marguerite_lowe", "Garrotte")  # another card is fine


def test_a_reveal_is_refused_when_every_copy_of_the_card_is_already_seen(db):
    state = game(db, sets=["expert"], row=EXPERT_ROW, variants=["no_safe_round"])
    play(state, "Ann", "hattie_quill", "Keyhole", player="Ben")
    play(state, "Ben", "silas_penhallow", "Keyhole", player="Cat")
    play(state, "Cat", "hattie_quill")
    play(state, "Ann", "hattie_quill")
    play(state, "Ben", "hattie_quill")  # the loupe passes the last suspect: review of hattie (4)
    assert state.phase == "reveal" and state.review.suspect == "hattie_quill"
    with pytest.raises(IllegalAction, match="Keyhole: all 2 copies"):
        reveal(state, "Keyhole", player="Ann")
    reveal(state, "Informant")
    assert state.phase == "reveal"


def test_a_loupe_card_played_at_the_loupe_steps_on_and_the_loupe_starts_there_after_the_next_review(db):
    """faq_loupe_to (found by the referee): 'after a review it starts there' also for Wrong Turning at the loupe."""
    state = game(db, variants=["no_safe_round"])
    play(state, "Ann", "dorian_fitch", "Wrong Turning", target="cornelius_brandt")
    assert state.row[state.loupe] == "hattie_quill"  # to cornelius, then the turn's step
    play(state, "Ben", "cornelius_brandt")
    play(state, "Cat", "cornelius_brandt")  # the loupe passes silas: review of cornelius
    reveal(state, "Solid Alibi")
    reveal(state, "Letter Opener")  # protected: nobody dies, the review is over
    assert state.phase == "play" and state.row[state.loupe] == "cornelius_brandt"
    assert state.players[state.active] == "Ann"


def test_cards_moved_out_of_a_review_take_the_face_up_ones_under_them_along(db):
    """move_under_ruling (found by the referee): a face-up card under a Filing Mix-up moves and stays face up."""
    state = game(db, variants=["no_safe_round"])
    play(state, "Ann", "hattie_quill")
    play(state, "Ben", "silas_penhallow")
    play(state, "Cat", "silas_penhallow")
    play(state, "Ann", "hattie_quill", "Village Gossip")  # at the loupe: face up
    play(state, "Ben", "hattie_quill")  # review of hattie (3): [Ben's, Gossip up, Ann's]
    reveal(state, "Filing Mix-up", target="dorian_fitch")
    assert state.phase == "play" and pile(state, "hattie_quill") == 0
    assert [e.face_up for e in state.piles["dorian_fitch"]] == [False, True]  # bottom first: Ann's, then the Gossip
    row = {r["id"]: r for r in h.summary(state)["row"]}
    assert row["dorian_fitch"]["face_up"] == ["Village Gossip"]


def test_a_reveal_without_a_review_says_none_is_under_way(db):
    state = game(db)
    play(state, "Ann", "hattie_quill")
    with pytest.raises(IllegalAction, match="no review is under way"):
        reveal(state, "Letter Opener")


def test_big_hands_a_player_out_of_cards_has_their_own_pile_reviewed_and_takes_it_if_nobody_dies(db):
    """variant_big_hands and faq_big_hands_review: the review takes the loupe's step; the top card is discarded."""
    state = game(db, players=("Ann", "Ben"), variants=["big_hands"])
    assert state.deck == 0 and state.hands == [24, 23]  # the whole base deck, as evenly as possible
    state.hands[0] = 2  # Ann has played all but two of her cards
    play(state, "Ann", "cornelius_brandt")
    play(state, "Ben", "dorian_fitch")
    play(state, "Ann", "dorian_fitch")        # her last card, on her own suspect: Dorian's pile is reviewed at once
    assert state.phase == "reveal" and state.review.suspect == "dorian_fitch" and state.hands[0] == 0
    reveal(state, "Solid Alibi")              # Ann's, on top
    reveal(state, "Letter Opener")            # Ben's: protected, nobody dies
    assert state.phase == "play" and state.hands[0] == 1 and state.discards == 1  # the top card went
    assert pile(state, "dorian_fitch") == 0 and state.loupe == 0 and state.players[state.active] == "Ben"


def test_a_rush_card_revealed_after_a_murder_card_does_not_make_it_murder(db):
    """faq_revealed_later: a murder card acts when it is revealed; a card revealed after it changes nothing."""
    state = game(db, sets=["advanced"], variants=["no_safe_round"])
    play(state, "Ann", "hattie_quill")
    play(state, "Ben", "hattie_quill")
    play(state, "Cat", "hattie_quill")
    play(state, "Ann", "silas_penhallow")
    play(state, "Ben", "dorian_fitch")        # review of hattie (3)
    reveal(state, "Adder Venom")              # Cat's, on top: 1 of 2
    reveal(state, "Planted Clue")             # now one copy would do, but the Adder Venom has acted
    assert "hattie_quill" in state.row and state.phase == "reveal"
    reveal(state, "Windfall")
    assert "hattie_quill" in state.row and state.phase == "play"


def test_the_loupes_extra_step_past_the_last_suspect_brings_one_review_and_is_then_spent(db):
    """faq_extra_step: Ottoline's extra step cannot carry over a review."""
    row = ["ottoline_vesey", "dorian_fitch", "marguerite_lowe", "cornelius_brandt", "hattie_quill"]
    state = game(db, variants=["powers", "no_safe_round"], row=row)
    for who, at in (("Ann", "marguerite_lowe"), ("Ben", "marguerite_lowe"), ("Cat", "hattie_quill"),
                    ("Ann", "marguerite_lowe")):
        play(state, who, at)
    assert state.row[state.loupe] == "hattie_quill"
    play(state, "Ben", "ottoline_vesey")      # two steps: the first passes the last suspect
    assert state.phase == "reveal" and state.review.suspect == "marguerite_lowe"
    for card in ("Village Gossip", "Fresh Lead", "Village Gossip"):
        reveal(state, card)
    assert state.phase == "play" and state.loupe == 0


def test_a_card_played_on_an_empty_pile_of_hattie_quill_is_not_discarded_by_her_power(db):
    """faq_discard_bottom_alone: the card just played is not 'the bottom card' it discards when it lies alone."""
    row = ["dorian_fitch", "marguerite_lowe", "cornelius_brandt", "hattie_quill", "silas_penhallow"]
    state = game(db, variants=["powers"], row=row)
    play(state, "Ann", "hattie_quill")
    assert pile(state, "hattie_quill") == 1 and state.discards == 0
    play(state, "Ben", "hattie_quill")
    assert pile(state, "hattie_quill") == 1 and state.discards == 1  # now the card under it goes


def test_a_restriction_that_depends_on_a_secret_is_never_checked(db):
    """The phone lies on the table: whether a play is taken may not depend on whose suspect it is. The own-suspect
    restrictions are the player's to keep, as at a physical table; the simulator, which knows its own suspect,
    still keeps them (allowed_at)."""
    state = game(db)  # Ann's turn, the loupe on Dorian Fitch, Ann's own suspect
    own = h.check(state, {"action": "play", "by": "Ann", "at": "dorian_fitch", "card": "filing_mixup",
                          "target": "hattie_quill"})
    state.loupe = 1  # Marguerite Lowe, Ben's
    other = h.check(state, {"action": "play", "by": "Ann", "at": "marguerite_lowe", "card": "family_lawyer"})
    stuck = h.check(state, {"action": "stuck", "by": "Ann", "card": "filing_mixup"})
    assert own is None and other is None and stuck is None
    assert h.allowed_at(state, 0, "family_lawyer") == ["dorian_fitch"]
    assert "dorian_fitch" not in h.allowed_at(state, 0, "filing_mixup")
    loupe_only = h.check(state, {"action": "stuck", "by": "Ann", "card": "letter_opener"})
    assert loupe_only == ("No playable card: Letter Opener can be played (at Dorian Fitch, Cornelius Brandt, "
                          "Hattie Quill and Silas Penhallow)")  # not at the loupe: a public rule, said in full
    told = h.describe(state, {"action": "play", "by": "Ann", "at": "marguerite_lowe", "card": "family_lawyer"})
    assert told == "Ann plays Family Lawyer face up at the loupe on Marguerite Lowe; Family Lawyer: protected"


def test_a_discard_names_the_face_up_cards_it_takes(db):
    state = game(db)
    play(state, "Ann", "dorian_fitch", card="solid_alibi")  # face up at the loupe
    state.loupe = 0
    play(state, "Ben", "dorian_fitch", card="paper_shredder")
    assert state.said[-1] == "Paper Shredder: Solid Alibi discarded face up"
    play(state, "Cat", "silas_penhallow")
    state.loupe = 4
    play(state, "Ann", "silas_penhallow", card="paper_shredder")
    assert "Paper Shredder: 1 card discarded unseen" in state.said


def test_wrong_secrets_at_setup_are_told_without_naming_whose(db):
    with pytest.raises(IllegalAction) as nobody:
        game(db, variants=["traitor"])
    with pytest.raises(IllegalAction) as two:
        game(db, secrets={"Ann": "traitor", "Ben": "traitor", "Cat": "dorian_fitch"}, variants=["traitor"])
    with pytest.raises(IllegalAction) as same:
        game(db, secrets={"Ann": "dorian_fitch", "Ben": "dorian_fitch", "Cat": "hattie_quill"})
    with pytest.raises(IllegalAction) as off_row:
        game(db, secrets={"Ann": "dorian_fitch", "Ben": "rufus_galloway", "Cat": "hattie_quill"})
    assert nobody.value.reason == ("nobody's secret suspect is the Traitor: with the Traitor variant exactly one "
                                   "player is the Traitor")
    assert two.value.reason.startswith("2 players' secret suspects are the Traitor")
    assert same.value.reason.startswith("two players have the same secret suspect")
    assert off_row.value.reason.startswith("a secret suspect is not in the row")
    for refused in (nobody, two, same, off_row):
        assert refused.value.rule.id == "setup_secrets"
        assert not any(p in str(refused.value) for p in ("Ann", "Ben", "Cat"))


DEATH_DRAWS_AT_THE_LOUPE = """\
casebook-log: 1
game: hasty
rules_version: 1
players: [Ann, Ben, Cat]
variants: [powers]
setup:
  sets: [expert]
  row: [felix_ambrose, dorian_fitch, cornelius_brandt, marguerite_lowe, hattie_quill]
  secrets: {Ann: dorian_fitch, Ben: marguerite_lowe, Cat: hattie_quill}
events:
  # Falling Chandelier at the loupe: Felix dies at once; Ann draws back up to 4, then the 2 his power gives
  - {action: play, by: Ann, at: felix_ambrose, card: Falling Chandelier}
  # the loupe stays on Dorian, who moved up into the gap; Ben's face-down play moves it to Cornelius
  - {action: play, by: Ben, at: hattie_quill}
  # Cornelius dies at the loupe: Ann and Ben draw a card now, Cat after drawing back up to 4
  - {action: play, by: Cat, at: cornelius_brandt, card: Falling Chandelier}
"""


def test_a_death_power_that_draws_at_the_loupe_draws_after_the_draw_back_up(db):
    """turn_draw: "After your play (and its effect) draw back up to 4 cards; then draw any cards an effect or
    power gave you this turn." Felix Ambrose and Cornelius Brandt murdered at the loupe give the active player
    their cards on top of a full hand, as Fresh Lead and Marguerite Lowe do; in a review (the hand already
    drawn back up) at once."""
    from casebook.rules.log import parse_log, replay
    from casebook.rules.problems import Problems

    log = parse_log(DEATH_DRAWS_AT_THE_LOUPE, "death_draws", Problems())
    assert log is not None
    after_felix = replay(db, log, until=1)
    assert after_felix.error is None, str(after_felix.error)
    assert after_felix.state.dead == ["felix_ambrose"]
    assert after_felix.state.hands == [6, 4, 4]  # Ann: 4 - 1 played, back up to 4, then 2
    out = replay(db, log)
    assert out.error is None, str(out.error)
    assert out.state.dead == ["felix_ambrose", "cornelius_brandt"]
    assert out.state.hands == [7, 5, 5]  # Cat: 4 - 1, back up to 4, then 1; Ann and Ben 1 each
    assert out.state.bonus_draws == 0 and h.problems(out.state) == []
    for sid in ("felix_ambrose", "cornelius_brandt", "marguerite_lowe"):  # each says when its cards come
        assert "after drawing back up" in h.suspects(db)[sid].power["text"], sid
    for card in h.actions(db).values():
        if card.op == "draw":
            assert "after drawing back up" in h.effect_text(card.effect, card.name), card.id


def test_a_refusal_names_the_rule_a_player_would_look_up(db):
    """Issue 20, item 15: a play while a review is under way cites the rule of the review's reveals
    (review_reveal), not how the pile is picked; an event after the end cites the rule the game ended by."""
    from pathlib import Path

    from casebook.rules.log import replay
    from tests.rules.logfiles import read_log

    referee = Path(__file__).resolve().parents[1] / "data" / "logs" / "hasty" / "referee"
    during = replay(db, read_log(referee / "i06_play_during_review.yaml"))
    assert during.error is not None and during.error.event_no == 6
    assert during.error.rule.id == "review_reveal", str(during.error)

    last = replay(db, read_log(referee / "i08_after_game_over.yaml"))
    assert last.error.event_no == 2 and last.error.rule.id == "end_last_player", str(last.error)
    log = read_log(referee / "g03_five_expert_traitor_wins.yaml")
    log.events.append({"action": "play", "by": "Ann", "at": "hattie_quill"})
    traitor = replay(db, log)
    assert traitor.error.event_no == 20 and traitor.error.rule.id == "variant_traitor", str(traitor.error)
    assert "is the Traitor and wins" in traitor.error.reason

    state = game(db)  # nobody holds a card and none is left to draw: those still in share the win (end_no_cards)
    state.deck, state.discards, state.hands = 0, 0, [0, 1, 0]
    state.active = 1
    play(state, "Ben", "silas_penhallow")
    assert h.is_over(state)
    shared = h.check(state, {"action": "play", "by": "Ann", "at": "hattie_quill"})
    with pytest.raises(IllegalAction) as after:
        play(state, "Ann", "hattie_quill")
    assert after.value.rule.id == "end_no_cards", shared

    with pytest.raises(IllegalAction) as unknown:  # a secret suspect misspelt: the rule of the secrets
        game(db, secrets={"Ann": "dorian_fitch", "Ben": "marguerite_lowe", "Cat": "Cornelius Brand"})
    assert unknown.value.rule.id == "setup_secrets" and "did you mean" in unknown.value.reason


def test_a_card_not_in_the_sets_played_cites_the_card_sets_rule(db):
    """The referee's i02: Garrotte (expert) in a base game: the rule to look up is which sets are played."""
    from pathlib import Path

    from casebook.rules.log import replay
    from tests.rules.logfiles import read_log

    referee = Path(__file__).resolve().parents[1] / "data" / "logs" / "hasty" / "referee"
    out = replay(db, read_log(referee / "i02_card_not_in_sets.yaml"))
    assert out.error.event_no == 1 and out.error.rule.id == "setup_sets", str(out.error)
    state = game(db)
    for event in ({"action": "stuck", "by": "Ann", "card": "garrotte"},
                  {"action": "play", "by": "Ann", "at": "dorian_fitch", "card": "Garrotte"}):
        with pytest.raises(IllegalAction) as exc:
            h.apply(state, event)
        assert exc.value.rule.id == "setup_sets", event


def test_big_hands_nobody_draws_the_cards_a_power_gives(db):
    """variant_big_hands: "nobody draws". Felix Ambrose murdered at the loupe by a player's last card leaves
    no draw pending for a later turn."""
    row = ["felix_ambrose", "dorian_fitch", "cornelius_brandt", "marguerite_lowe", "hattie_quill"]
    state = game(db, variants=["powers", "big_hands"], sets=["expert"], row=row,
                 secrets={"Ann": "dorian_fitch", "Ben": "marguerite_lowe", "Cat": "hattie_quill"})
    state.hands[0] = 1
    play(state, "Ann", "felix_ambrose", "Falling Chandelier")
    assert state.dead == ["felix_ambrose"] and state.hands[0] == 0
    assert state.bonus_draws == 0
