"""Rules search: the entry that answers a table question comes FIRST, on the real Graves
database; typos, plurals and synonyms still find it; `casebook rules` prints the answers.

"Right" is decided by reading cards/graves/: the entry whose text answers the question. Where
a location card and its glossary rule print the same facts, either is right.
"""

from __future__ import annotations

import argparse
import ast
import re
import shutil
import sys
import time
from pathlib import Path

import pytest
import yaml

from casebook.rules.search import (
    Entry,
    Hit,
    RulesIndex,
    asks_somewhere,
    damerau_levenshtein,
    normalize,
    rewrite,
    stem,
    tokenize,
)

ROOT = Path(__file__).resolve().parents[2]
TINY_CARDS = ROOT / "tests" / "data" / "tinygame" / "cards"
CORPUS = ROOT / "tests" / "cli" / "broken_corpus.yaml"

PARK = ("park", "location_park")

# query -> the ids any of which is the right FIRST answer
TABLE_QUESTIONS = [
    # the brief's questions
    ("park", PARK),
    ("parks", PARK),
    ("deuse trump", ("term_trump", "faq_deuce_suit")),  # typo; entries on a deuce changing trump
    ("deuce trump", ("term_trump", "faq_deuce_suit")),
    ("tie at location", ("resolve_tie",)),
    ("deuce palace", ("faq_palace_deuce",)),
    ("how many turns clocks", ("faq_clock_turns", "turn_time_moves_on")),
    ("record office ace", ("record_office", "location_record_office")),
    ("single case points", ("variant_single_case",)),
    ("premature reveal", ("case_premature_reveal",)),
    ("alley limit", ("alley", "location_alley")),
    ("lead player after tie", ("faq_tie_lead",)),
    ("mulligan", ("setup_hands",)),
    ("bank vault", ("bank_vault", "location_bank_vault")),
    ("strongroom", ("bank_strongroom", "location_bank_strongroom")),
    # more questions players ask
    ("swap when passing", ("turn_pass",)),
    ("passing swap alley", ("faq_pass_swap_alley_park",)),
    ("golden rule", ("term_golden_rule",)),
    ("night physician", ("thaddeus_wrenlow",)),
    ("countess of whispers", ("livia_marchbank",)),
    ("what is an ace worth", ("term_aces",)),
    ("empty deck", ("term_exhausted_decks",)),
    ("reshuffle", ("term_exhausted_decks",)),
    ("both players pass", ("turn_two_passes",)),
    ("slums zero tokens", ("faq_slums_minimum",)),
    ("museum deuce", ("faq_museum_deuce",)),
    # the variant is the rule, the FAQ adds "an even number": both answer it
    ("how many cases long haul", ("faq_long_haul_even", "variant_long_haul")),
    ("scores tied at the end", ("end_tiebreak",)),
    ("points for a correct guess", ("case_guess_points",)),
    ("no cards left", ("faq_no_cards_left",)),
    ("how long does a trump change last", ("faq_trump_duration",)),
    ("mastermind knows all", ("variant_knows_all",)),
    ("villain identity", ("setup_identity",)),
    ("play a card outside the one-suit rule", ("detective_question_mark_4", "mastermind_shoeprints_4")),
    ("discard opponent card value 7", ("mastermind_notebook_4",)),
    ("who leads first", ("term_lead_player", "setup_start")),
    ("how many cards can I play", ("turn_what_may_be_played",)),
    ("unmasking", ("case_unmasking",)),
    ("active location", ("term_active_location",)),
    ("second case roles", ("case_second",)),
    ("who wins", ("end_winner",)),
    ("deal five locations", ("setup_locations",)),
    ("river redraw", ("river", "location_river")),
    ("set aside evidence card", ("case_unmasking", "setup_evidence")),
    # typos: distance 1 (substitution, transposition) and 2 (a long word)
    ("mulligen", ("setup_hands",)),
    ("countrysdie", ("countryside", "location_countryside")),
    ("stongrom", ("bank_strongroom", "location_bank_strongroom")),
    ("villian", ("setup_identity",)),
]


@pytest.fixture(scope="module")
def index(graves_db) -> RulesIndex:
    return RulesIndex.build([graves_db])


@pytest.mark.parametrize(("query", "expected"), TABLE_QUESTIONS, ids=[q for q, _ in TABLE_QUESTIONS])
def test_the_right_entry_comes_first(index, query, expected):
    hits = index.search(query, game="graves")
    assert hits, f"no hits for {query!r}"
    ranking = ", ".join(f"{h.entry.id} ({h.score:.2f})" for h in hits[:5])
    assert hits[0].entry.id in expected, f"{query!r}: expected one of {expected} first, got {ranking}"


def test_enough_table_questions():
    assert len(TABLE_QUESTIONS) >= 15


# --- what is indexed ------------------------------------------------------------------------


def test_every_rule_faq_location_ability_card_and_identity_is_indexed(index, graves_db):
    by_id = {e.id: e for e in index.entries}
    for rule in graves_db.rules:
        assert by_id[rule.id].kind == "rule" and by_id[rule.id].text == rule.text
    for ruling in graves_db.faq:
        e = by_id[ruling.id]
        assert (e.kind, e.title, e.text) == ("faq", ruling.question, ruling.ruling)
    for card in graves_db.components["locations"].cards:
        e = by_id[card.id]
        assert e.kind == "location" and e.title == card["name"] and card["ability"] in e.text
        if card.get("note"):
            assert card["note"] in e.text
    for deck in ("detective", "mastermind"):
        for card in graves_db.components[deck].cards:
            if card.get("ability"):
                assert by_id[card.id].kind == "card" and by_id[card.id].text == card["ability"]["text"]
            else:
                assert card.id not in by_id, "deck cards without an ability have nothing to look up"
    for card in graves_db.components["identities"].cards:
        e = by_id[card.id]
        assert e.title == f"{card['name']}, {card['epithet']}" and card["flavour"] in e.text
    for token in ("time_token", "trump_shoeprints", "evidence_01"):
        assert token not in by_id  # no name, no ability: nothing to look up


def test_deck_card_titles_name_rank_suit_and_deck(index):
    by_id = {e.id: e for e in index.entries}
    assert by_id["detective_shoeprints_3"].title == "3 of Shoeprints (Detective deck)"
    assert by_id["mastermind_magnifying_glass_2"].title == "2 of Magnifying Glass (Mastermind deck)"


def test_location_entries_carry_their_facts(index):
    park = next(e for e in index.entries if e.id == "park")
    assert "Clocks: 3" in park.text and "Trump: Shoeprints" in park.text
    alley = next(e for e in index.entries if e.id == "alley")
    assert "Trump: none" in alley.text


def test_results_carry_their_source(index):
    sources = {h.entry.source for h in index.search("park discard", limit=10)}
    assert {"location park", "rule location_park"} <= sources
    assert index.search("deuce palace")[0].entry.source == "FAQ faq_palace_deuce"
    assert index.search("draw two cards")[0].entry.source == "rule turn_draw"
    hit = index.search("shoeprints 3 remove time token")[0]
    assert hit.entry.source == "card detective_shoeprints_3"
    assert [e.source for e in hit.also] == ["card mastermind_shoeprints_3"]
    for query, _ in TABLE_QUESTIONS:
        for h in index.search(query):
            assert isinstance(h, Hit) and isinstance(h.entry, Entry)
            assert h.entry.game == "graves" and h.score > 0
            assert h.entry.source == f"{'FAQ' if h.entry.kind == 'faq' else h.entry.kind} {h.entry.id}"


def test_results_come_best_first_and_respect_the_limit(index):
    hits = index.search("trump deuce discard evidence", limit=7)
    assert len(hits) == 7
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert len(index.search("trump", limit=2)) == 2
    assert index.search("trump", limit=0) == []


def test_cards_with_the_same_text_fold_into_one_hit(index):
    hits = index.search("make its suit the trump", limit=10)
    deuces = [h for h in hits if h.entry.kind == "card"]
    assert len(deuces) == 1, [h.entry.id for h in hits]
    folded = {deuces[0].entry.id, *(e.id for e in deuces[0].also)}
    assert folded == {f"{deck}_{suit}_2" for deck in ("detective", "mastermind")
                      for suit in ("magnifying_glass", "shoeprints", "question_mark", "notebook", "briefcase")}


# --- labels a person reads -------------------------------------------------------------------


def test_every_hit_carries_a_label_a_person_reads(index, graves_db):
    labels = {h.entry.id: h.source_label for h in index.search("park discard", limit=10)}
    assert labels["location_park"] == "Rule: The Park" and labels["park"] == "Location: The Park"
    ruling = next(f for f in graves_db.faq if f.id == "faq_palace_deuce")
    assert index.search("deuce palace")[0].source_label == f"FAQ: {ruling.question}"
    # a card of one deck names its deck; twins printed in both decks say the name once
    assert index.search("discard opponent card value 7")[0].source_label == "Card: 4 of Notebook (Mastermind deck)"
    assert index.search("shoeprints 3 remove time token")[0].source_label == "Card: 3 of Shoeprints"
    deuce = next(h for h in index.search("make its suit the trump", limit=10) if h.entry.kind == "card")
    assert deuce.source_label == f"Card: {deuce.entry.name} (and 9 alike)"
    assert index.search("night physician")[0].source_label == "Card: Thaddeus Wrenlow, the Night Physician"
    for query, _ in TABLE_QUESTIONS:
        for h in index.search(query):
            assert h.source_label == h.entry.label or h.also, h.source_label
            assert "[" not in h.source_label and "_" not in h.source_label


def test_a_search_across_games_names_the_game(graves_db, syndicate_db):
    both = RulesIndex.build([graves_db, syndicate_db])
    labels = [h.source_label for h in both.search("what happens on a tie", limit=10)]
    assert any(x.startswith("Detective Graves \u00b7 Rule: ") for x in labels)
    assert any(x.startswith("The Syndicate \u00b7 Rule: ") for x in labels)
    assert both.game_title("syndicate") == "The Syndicate"
    # one game asked for, or only one game in the index: no game name in front
    assert all(":" in x and "\u00b7" not in x for x in (h.source_label for h in both.search("tie", game="syndicate")))
    alone = RulesIndex.build([syndicate_db])
    assert alone.search("tie")[0].source_label == "Rule: Equal totals"


# --- queries that find nothing --------------------------------------------------------------


@pytest.mark.parametrize("query", ["", "   ", "the of a", "?!", "...", "a"])
def test_an_empty_query_gives_nothing(index, query):
    assert index.search(query) == []


@pytest.mark.parametrize("query", ["xyzzy", "qwertyuiop", "zzzz", "flibbertigibbet"])
def test_an_unknown_word_gives_nothing(index, query):
    assert index.search(query) == []


def test_an_unknown_word_beside_a_known_one_does_not_get_in_the_way(index):
    hits = index.search("mulligan xyzzy")
    assert hits and hits[0].entry.id == "setup_hands"


def test_odd_input_does_not_crash(index):
    for query in ["Ω≈ç√∫", "'s", "2", "A of shoeprints", "-" * 500, "park " * 200, "ÉVIDENCE", "\x00\n\t"]:
        hits = index.search(query)
        assert isinstance(hits, list)
    assert index.search("ÉVIDENCE")
    assert index.search("park", game="no_such_game") == []


# --- normalisation, stemming, synonyms, typos -----------------------------------------------


def test_normalisation_and_stemming():
    assert tokenize("Parks") == tokenize("park") == tokenize("The Park's")
    assert tokenize("passes") == tokenize("passing") == tokenize("pass") == ["pass"]
    assert tokenize("Abilities") == tokenize("ability")
    assert tokenize("tied ties tie") == ["tie"] * 3
    assert tokenize("clocks, tokens; turns!") == tokenize("clock token turn")
    assert tokenize("The Mastermind's identity?") == ["mastermind", "identity"]
    assert stem("deuces") == stem("deuce")
    assert stem("shuffled") == stem("shuffling") == stem("shuffle")


def test_question_words_irregular_forms_and_face_up_down():
    from casebook.rules.search import is_question, is_stopword_typo

    assert tokenize("what happens if I pass?") == ["pass"]
    assert tokenize("do I have to follow") == tokenize("must I follow") == ["must", "follow"]
    assert tokenize("the led Ace") == tokenize("lead ace") and tokenize("dealt") == tokenize("deal")
    assert tokenize("a face-down card") == tokenize("face down cards") == ["facedown", "card"]
    assert tokenize("add up the piles") == ["add", "up", "pil"] and "faceup" in tokenize("face up")
    assert is_stopword_typo("waht") and is_stopword_typo("cna") and not is_stopword_typo("park")
    assert not is_stopword_typo("tie") and not is_stopword_typo("pas")  # "pas" is "pass" mistyped
    assert is_question("waht happens on a tie") and is_question("tie?") and not is_question("deuce palace")


def test_one_way_synonyms(index):
    from casebook.rules.search import SYNONYMS

    assert "tie" in SYNONYMS["drawn"] and "draw" not in SYNONYMS.get("tie", {})
    assert all(not h.entry.id.startswith("turn_draw") for h in index.search("what happens on a tie", limit=5))


def test_synonyms(index):
    assert index.search("villain")[0].entry.id == "setup_identity"
    assert index.search("drawn game")[0].entry.id == "end_tiebreak"
    assert index.search("time token clock turns")  # one group typed together still works
    assert any(h.entry.id == "faq_palace_deuce" for h in index.search("2 palace", limit=3))


def test_damerau_levenshtein():
    assert damerau_levenshtein("deuce", "deuce") == 0
    assert damerau_levenshtein("deuse", "deuce") == 1
    assert damerau_levenshtein("prak", "park") == 1  # a transposition is one edit
    assert damerau_levenshtein("stongrom", "strongroom") == 2
    assert damerau_levenshtein("", "abc") == 3
    assert damerau_levenshtein("kitten", "sitting", limit=1) == 2  # capped at limit + 1


def test_typos_at_distance_one(index):
    assert index.search("mulligen")[0].entry.id == "setup_hands"  # substitution
    assert index.search("prak")[0].entry.id in PARK  # transposition
    assert index.search("parkk")[0].entry.id in PARK  # insertion
    assert index.search("musem")[0].entry.id in ("museum", "location_museum")  # deletion


def test_typos_at_distance_two_only_for_long_words(index):
    assert index.search("stongrom")[0].entry.id in ("bank_strongroom", "location_bank_strongroom")
    assert index.search("mulignan")[0].entry.id == "setup_hands"
    assert index.search("pxrq") == []  # 2 edits from "park", but too short for 2


def test_a_typo_ranks_below_the_word_spelled_right(index):
    right = index.search("mulligan")[0].score
    wrong = index.search("mulligen")[0].score
    assert 0 < wrong < right


# --- games ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def moth_db():
    from casebook.rules.cards import load_database

    return load_database("moth", TINY_CARDS)


def test_any_game_is_indexed_from_its_own_fields(moth_db):
    index = RulesIndex.build([moth_db])
    gas = index.search("gas mantle")[0].entry
    assert (gas.kind, gas.id, gas.title) == ("card", "gas_mantle", "Gas Mantle")
    assert "Suit: Flame" in gas.text and "Value: 3" in gas.text
    assert index.search("deal three")[0].entry.source == "rule setup_deal"
    assert index.search("same suit and value")[0].entry.source == "FAQ faq_equal_flames"


def test_several_games_in_one_index(graves_db, moth_db):
    index = RulesIndex.build([graves_db, moth_db])
    assert sorted(index.games) == ["graves", "moth"]
    assert {h.entry.game for h in index.search("shuffle", limit=50)} == {"graves", "moth"}
    assert {h.entry.game for h in index.search("shuffle", game="moth", limit=50)} == {"moth"}
    assert index.search("mulligan", game="moth") == []
    assert index.search("mulligan")[0].entry.id == "setup_hands"


# --- speed and purity -----------------------------------------------------------------------


def test_search_is_fast(index):
    queries = [q for q, _ in TABLE_QUESTIONS] * 3
    index.search("warm up")
    start = time.perf_counter()
    for q in queries:
        index.search(q)
    mean_ms = (time.perf_counter() - start) * 1000 / len(queries)
    assert mean_ms < 20, f"{mean_ms:.1f} ms per query"


def test_search_module_imports_only_the_standard_library():
    """rules/search.py and the modules of rules/ it reads (rules/query_focus.py) import the standard library alone."""
    seen: set[str] = set()
    todo = ["search"]
    names = set()
    while todo:
        module = todo.pop()
        seen.add(module)
        source = (ROOT / "rules" / f"{module}.py").read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                names.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                assert node.level == 0, "no relative imports"
                if (node.module or "").startswith("casebook.rules."):
                    sibling = node.module.split(".")[2]
                    todo.extend([sibling] if sibling not in seen else [])
                    continue
                names.add((node.module or "").split(".")[0])
    assert names, "the walk found no imports at all"
    outside = {n for n in names if n not in sys.stdlib_module_names and n != "__future__"}
    assert not outside, f"rules/search.py (or {sorted(seen - {'search'})}) imports {outside}"


# --- casebook rules -------------------------------------------------------------------------


def rules_command(*argv: str) -> int:
    from casebook.rules_cmd import add_parser, run

    parser = argparse.ArgumentParser(prog="casebook")
    sub = parser.add_subparsers(dest="command", required=True)
    add_parser(sub)
    return run(parser.parse_args(["rules", *argv]))


def test_cli_prints_ranked_answers_with_sources_and_full_text(capsys, graves_db):
    assert rules_command("graves", "deuce", "palace") == 0
    out = capsys.readouterr().out
    blocks = out.strip().split("\n\n")
    assert len(blocks) == 5
    assert blocks[0].startswith("1. FAQ: Can a deuce change the trump at The Palace Grounds?\n")
    assert blocks[1].startswith("2. ") and "[" not in out  # no ids: sources read as a person would
    ruling = next(f.ruling for f in graves_db.faq if f.id == "faq_palace_deuce")
    body = blocks[0].splitlines()[1:]
    assert all(line.startswith("   ") for line in body)
    assert " ".join(" ".join(body).split()) == ruling  # the full text, wrapped and indented


def test_cli_limit_and_folded_cards(capsys):
    assert rules_command("graves", "make", "its", "suit", "the", "trump", "--limit", "2") == 0
    out = capsys.readouterr().out
    assert out.count("\n\n") == 1 and "\n2. " in out
    assert rules_command("graves", "shoeprints 3 remove time token", "--limit", "1") == 0
    out = capsys.readouterr().out
    assert out.startswith("1. Card: 3 of Shoeprints\n")  # printed in both decks: the deck is not named
    assert "Printed on: 3 of Shoeprints (Detective deck); 3 of Shoeprints (Mastermind deck)" in out


def test_cli_searches_every_game_and_names_each(capsys):
    assert rules_command("all", "what", "happens", "on", "a", "tie", "--limit", "3") == 0
    out = capsys.readouterr().out
    assert ". Detective Graves \u00b7 Rule: A tie loses the evidence\n" in out  # P.I.'s ties may come first
    assert "The Syndicate \u00b7 Rule: Equal totals\n" in out
    assert rules_command("all", "xyzzy") == 1
    assert "no matches for 'xyzzy' in any game" in capsys.readouterr().out


def test_cli_no_matches(capsys):
    assert rules_command("graves", "xyzzy") == 1
    assert "no matches for 'xyzzy'" in capsys.readouterr().out


def test_cli_unknown_game(capsys):
    assert rules_command("nosuchgame", "park") == 2
    err = capsys.readouterr().err
    assert "unknown game 'nosuchgame'" in err and "graves" in err


def test_cli_cards_folder(capsys):
    assert rules_command("moth", "gas", "mantle", "--cards", str(TINY_CARDS)) == 0
    assert capsys.readouterr().out.startswith("1. Card: Gas Mantle\n")
    assert rules_command("graves", "park", "--cards", str(TINY_CARDS)) == 2
    assert "moth" in capsys.readouterr().err


def test_cli_rejects_a_bad_limit(capsys):
    with pytest.raises(SystemExit) as exc:
        rules_command("graves", "park", "--limit", "0")
    assert exc.value.code == 2
    assert "must be 1 or more" in capsys.readouterr().err


CARD_CASES = [c for c in yaml.safe_load(CORPUS.read_text(encoding="utf-8"))["cases"]
              if c["file"].startswith("cards/") and not c.get("xfail")]


@pytest.mark.parametrize("case", CARD_CASES, ids=[c["name"] for c in CARD_CASES])
def test_cli_reports_a_broken_database_without_a_traceback(case, tmp_path, capsys):
    cards = tmp_path / "cards"
    shutil.copytree(ROOT / "cards", cards)
    target = tmp_path / case["file"]
    original = target.read_text(encoding="utf-8")
    assert original.count(case["find"]) == 1, f"corpus case {case['name']} no longer applies"
    target.write_text(original.replace(case["find"], case["replace"], 1), encoding="utf-8")
    from casebook.rules.cards import read_database
    from casebook.rules.problems import Problems

    problems = Problems()
    read_database("graves", cards, problems)
    capsys.readouterr()
    code = rules_command("graves", "park", "--cards", str(cards))
    captured = capsys.readouterr()
    if problems:
        assert code == 1
        assert "error:" in captured.err and "problem(s)" in captured.err
        assert captured.out == ""
    else:  # broken only for printing (a layout, a size): the rules still answer
        assert code == 0 and captured.out.startswith("1. ")


# --- issue 20: P.I. and Hasty questions of the kinds that failed --------------------------------

@pytest.fixture(scope="module")
def pi_hasty_index() -> RulesIndex:
    from casebook.rules.cards import load_database

    return RulesIndex.build([load_database("pi"), load_database("hasty"), load_database("syndicate")])


@pytest.mark.parametrize(("game", "query", "expected"), [
    # "how many ..." finds the rule that states the count
    ("pi", "how many rounds are there", {"game_end", "mini_game_end"}),
    ("pi", "how many investigators does everyone have", {"components_pieces", "investigators_one_use"}),
    ("pi", "how many suspect tiles are there", {"components_cards"}),
    ("hasty", "how many suspects in the row", {"setup_row"}),
    ("hasty", "how many cards do we deal", {"setup_hands"}),
    # "set up" is the setup, not a set of cards; a basic rule before a narrow ruling
    ("pi", "how do we set up", {"setup_players", "setup_cases", "setup_tiles", "setup_evidence",
                                "setup_first_player"}),
    ("hasty", "who goes first", {"setup_hands"}),
    ("pi", "who goes first", {"setup_first_player"}),
    # table words tied to the database's
    ("pi", "what happens at the end of a round", {"mini_game_end"}),
    ("hasty", "what happens at the end of the row", {"turn_move_loupe", "turn_first_round"}),
    ("hasty", "can I look at my own suspect", {"setup_secrets"}),
])
def test_issue_20_questions_find_their_rule_first(pi_hasty_index, game, query, expected):
    assert pi_hasty_index.search(query, game=game)[0].entry.id in expected


def test_how_many_reads_as_a_count_and_set_up_as_setup():
    assert tokenize("how do we set up") == ["setup"] and tokenize("set-up") == ["setup"]
    assert tokenize("setting up") == ["setup"] and tokenize("who sets up") == ["setup"]
    assert tokenize("a set of cards") == ["set", "card"]


# --- issue 20, second round: general readings of players' words --------------------------------

def test_cant_run_out_and_derived_words_read_as_the_rules_words():
    assert tokenize("I can't play") == tokenize("I cannot play") == tokenize("I cant play") == ["cannot", "play"]
    assert tokenize("I ran out of cubes") == tokenize("out of cubes") == ["out", "cub"]
    assert stem("restriction") == stem("restricted") == "restrict" and stem("playable") == "play"
    assert stem("elimination") == stem("eliminated") and stem("lied") == stem("misled") == stem("mislead")


@pytest.mark.parametrize(("game", "query", "expected"), [
    # "how many X": the rule that counts X ("3 discs") before one that only speaks of discs
    ("pi", "how many discs do I get", {"components_pieces"}),
    ("pi", "how many cubes do we each get", {"components_pieces"}),
    # ... and "play one card" counts cards too, if less than a number does
    ("hasty", "how many cards do you play each turn", {"turn_play"}),
    ("syndicate", "how many players can play", {"setup_players"}),
    # a passive "get" is no word of the question
    ("hasty", "which pile gets reviewed", {"review_largest"}),
    # "my suspect" is the secret one
    ("hasty", "can I play a card on my own suspect", {"cards_restrictions"}),
    # a question naming a card, or asking for one, finds the card
    ("hasty", "is there a card that lets me see another player's suspect", {"spyglass", "keyhole"}),
    ("hasty", "where does the loupe go when I play wrong turning", {"wrong_turning", "faq_loupe_to"}),
    # table phrases
    ("hasty", "when does a review happen", {"turn_move_loupe"}),
    ("hasty", "who takes the first turn", {"setup_hands"}),
    ("pi", "what if the guy holding my case lied to me", {"misleading", "faq_misled_details"}),
    ("pi", "I ran out of cubes", {"faq_out_of_cubes"}),
    ("hasty", "which cards can't be played at the loupe", {"cards_restrictions"}),
])
def test_issue_20_players_words_find_their_rule_first(pi_hasty_index, game, query, expected):
    assert pi_hasty_index.search(query, game=game)[0].entry.id in expected


def test_a_question_that_names_no_card_still_puts_cards_below_rules(pi_hasty_index):
    """Naming a card lifts the question's leaning to rules for that card only."""
    hits = pi_hasty_index.search("can I play a card at the loupe", game="hasty", limit=5)
    assert hits[0].entry.kind == "rule"


def test_at_once_states_no_count(pi_hasty_index):
    """"its effect happens at once" is no count: "how many" does not lean to it."""
    from casebook.rules.search import _states_a_count

    assert not _states_a_count("its effect happens at once") and _states_a_count("draw 4 cards")


def test_what_a_number_counts():
    from casebook.rules.search import _counted

    assert _counted(["Each player has 5 investigators, 10 cubes, 3 black discs"]) == [
        "#count:investigator", "#count:cub", "#count:black", "#count:disc"]
    assert _counted(["The first player to solve scores 7. Each later solver takes a box"]) == []
    assert _counted(["Play one card"], one=True) == ["#count:card"]
    assert _counted(["A one-page player aid"], one=True) == [] and _counted(["Play one card"]) == []


def test_an_faq_ruling_is_found_by_its_keywords(tmp_path):
    """A ruling phrased one way is found by the table's words for the same situation."""
    from casebook.rules.cards import load_database

    cards = tmp_path / "moth"
    shutil.copytree(TINY_CARDS / "moth", cards)
    rules = cards / "rules.yaml"
    plain = RulesIndex.build([load_database("moth", tmp_path)])
    assert not any(h.entry.id == "faq_equal_flames" for h in plain.search("duplicates")), "the word is new"
    rules.write_text(rules.read_text(encoding="utf-8").replace(
        "    refs: [turn_play, gas_mantle]", "    refs: [turn_play, gas_mantle]\n    keywords: [duplicates, twin]"),
        encoding="utf-8")
    db = load_database("moth", tmp_path)
    assert db.faq[0].keywords == ("duplicates", "twin")
    assert RulesIndex.build([db]).search("duplicates")[0].entry.id == "faq_equal_flames"


def test_faq_keywords_that_are_not_a_list_are_refused(tmp_path):
    from casebook.rules.cards import load_database
    from casebook.rules.problems import DataError

    shutil.copytree(TINY_CARDS / "moth", tmp_path / "moth")
    rules = tmp_path / "moth" / "rules.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace(
        "    refs: [turn_play, gas_mantle]", "    refs: [turn_play, gas_mantle]\n    keywords: {a: 1}"), encoding="utf-8")
    with pytest.raises(DataError, match=r"rules.yaml:\d+.*keywords must be a list"):
        load_database("moth", tmp_path)


def test_a_pi_district_is_found_with_its_neighbours(pi_hasty_index):
    """The city's districts are entries of their own (P.I.'s records): "what's next to X" finds X, whose text
    names every district it touches as the database says."""
    from casebook.rules.cards import load_database

    db = load_database("pi")
    districts = {r.id: r.data for r in db.records["districts"].cards}
    for rid, data in districts.items():
        hit = pi_hasty_index.search(f"what's next to {data['name']}", game="pi")[0]
        assert (hit.entry.id, hit.entry.kind) == (rid, "location")
        neighbours = [districts[n]["name"] for n in data["adjacent"]]
        assert f"Adjacent: {', '.join(neighbours)}." in hit.entry.text
    assert pi_hasty_index.search("which districts touch downtown", game="pi")[0].entry.id == "downtown"


@pytest.mark.parametrize(("game", "query", "expected"), [
    ("graves", "this place ended in a draw, who leads next", {"faq_tie_lead", "resolve_tie"}),
    ("syndicate", "can five of us play", {"setup_players"}),
    ("hasty", "is there a card that makes someone skip their go", {"missed_train"}),
    ("graves", "if I pass can I get rid of a card", {"turn_pass"}),
    ("hasty", "maximum number of players?", {"setup_players"}),
    ("clash", "holmes is 2 up in a thread, what does he get", {"summary_holmes"}),
    ("syndicate", "what number is the mill", {"mill"}),
    # "who plays first", "who starts": who goes first, not the first round's ruling
    ("hasty", "who plays first", {"setup_hands"}),
    ("hasty", "who starts", {"setup_hands"}),
])
def test_table_phrases_read_as_the_rules(game, query, expected):
    from casebook.rules.cards import load_database

    hits = RulesIndex.build([load_database(game)]).search(query, game=game, limit=3)
    assert hits and hits[0].entry.id in expected, [h.entry.id for h in hits]


def test_an_entry_is_found_by_a_question_players_ask(tmp_path):
    """`asks` holds questions in the table's words; the entry answers them though its text shares no word."""
    from casebook.rules.cards import load_database

    shutil.copytree(TINY_CARDS / "moth", tmp_path / "moth")
    rules = tmp_path / "moth" / "rules.yaml"
    ask = "what about a doppelganger kerfuffle"
    plain = RulesIndex.build([load_database("moth", tmp_path)])
    assert plain.search("doppelganger kerfuffle") == [], "none of the words is in the database"
    rules.write_text(rules.read_text(encoding="utf-8").replace(
        "    refs: [turn_play, gas_mantle]", f'    refs: [turn_play, gas_mantle]\n    asks: ["{ask}"]'), encoding="utf-8")
    db = load_database("moth", tmp_path)
    assert db.faq[0].asks == (ask,)
    assert RulesIndex.build([db]).search("doppelganger kerfuffle")[0].entry.id == "faq_equal_flames"


@pytest.mark.parametrize("bad, why", [("{a: 1}", "asks must be a list of questions"),
                                      ("['']", "asks must be a list of questions"),
                                      ("[" + ", ".join(["q"] * 13) + "]", "asks holds 13 questions; at most 12")])
def test_asks_that_are_not_a_short_list_of_questions_are_refused(tmp_path, bad, why):
    from casebook.rules.cards import load_database
    from casebook.rules.problems import DataError

    shutil.copytree(TINY_CARDS / "moth", tmp_path / "moth")
    rules = tmp_path / "moth" / "rules.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace(
        "    refs: [turn_play, gas_mantle]", f"    refs: [turn_play, gas_mantle]\n    asks: {bad}"), encoding="utf-8")
    with pytest.raises(DataError, match=rf"rules.yaml:\d+.*{re.escape(why)}"):
        load_database("moth", tmp_path)


def test_a_card_is_found_by_a_question_players_ask(tmp_path):
    """A card takes `asks` too ("which one is the gaslight"): the lookup finds it by the table's name for it."""
    from casebook.rules.cards import load_database
    from casebook.rules.problems import DataError

    shutil.copytree(TINY_CARDS / "moth", tmp_path / "moth")
    deck = tmp_path / "moth" / "deck.yaml"
    text = deck.read_text(encoding="utf-8")
    assert RulesIndex.build([load_database("moth", tmp_path)]).search("gaslight doohickey") == []
    deck.write_text(text.replace("value: 3}", 'value: 3, asks: ["which one is the gaslight doohickey"]}'), encoding="utf-8")
    db = load_database("moth", tmp_path)
    assert [c.get("asks") for c in db.components["deck"].cards if c.id == "gas_mantle"] == [
        ["which one is the gaslight doohickey"]]
    assert RulesIndex.build([db]).search("gaslight doohickey")[0].entry.id == "gas_mantle"
    deck.write_text(text.replace("value: 3}", "value: 3, asks: 7}"), encoding="utf-8")
    with pytest.raises(DataError, match=r"deck.yaml:8.*asks must be a list of questions"):
        load_database("moth", tmp_path)


@pytest.mark.parametrize("game, ask, answer, says", [
    ("hasty", "how many cards are in the base set", "components", "base 47"),
    ("graves", "how many trump change tokens are there", "components_other", "10 trump-change tokens"),
    ("graves", "is there a hand limit", "faq_hand_limit", "no hand limit"),
])
def test_what_the_blind_question_sets_found_missing_is_answered(game, ask, answer, says):
    """Questions the blind sets' writers had to leave out (no entry said it) now find an entry that says it."""
    from casebook.rules.cards import load_database

    hit = RulesIndex.build([load_database(game)]).search(ask)[0]
    assert (hit.entry.id, says in hit.entry.text) == (answer, True)


def test_which_site_asks_for_a_site():
    """ "which site ..." asks for one of the game's named things (Clash's Investigation Sites), as "which card"
    does: the site comes before the rules that share its words."""
    from casebook.rules.cards import load_database

    index = RulesIndex.build([load_database("clash")])
    assert "sit" in index._games["clash"].kind_words
    hits = index.search("which site makes a support card count double", game="clash")
    assert hits[0].entry.id == "embankment"


def test_a_hasty_suspect_shows_its_power_and_no_art_id():
    """A suspect's hit says what the suspect does (its power), not the id of the bust its card draws."""
    from casebook.rules.cards import load_database

    hit = RulesIndex.build([load_database("hasty")]).search("hattie quill")[0]
    assert hit.entry.id == "hattie_quill"
    assert hit.entry.text.startswith("When a card is played here: discard the bottom card")
    assert "bust_" not in hit.entry.text and "Portrait" not in hit.entry.text


# --- issue 20: the search's own weak spots -----------------------------------------------------

@pytest.mark.parametrize(("query", "expected"), [
    # a suspect's power is its text: found by what it does, not only by its `asks`
    ("which suspect draws cards when murdered", {"felix_ambrose", "cornelius_brandt"}),
    ("which suspect discards the bottom card of the pile", {"hattie_quill"}),
    ("which suspect reverses the turn order", {"imelda_thorne", "dorian_fitch"}),
    # "which suspect" asks for a suspect: an action card doing the same comes after
    ("which suspect makes you throw away a card when you play on her", {"winifred_saltash"}),
])
def test_a_suspect_is_found_by_its_power(pi_hasty_index, query, expected):
    assert pi_hasty_index.search(query, game="hasty")[0].entry.id in expected


def test_a_ruling_that_names_a_card_and_holds_more_of_the_question_comes_before_the_card(pi_hasty_index):
    """The question names Ottoline Vesey but asks about the case her ruling settles; asking what she does
    still finds her."""
    ask = "I played on Ottoline Vesey with the loupe on the last suspect, what happens to the extra step"
    assert [h.entry.id for h in pi_hasty_index.search(ask, game="hasty", limit=2)] == ["faq_extra_step", "ottoline_vesey"]
    assert pi_hasty_index.search("what does ottoline vesey do", game="hasty")[0].entry.id == "ottoline_vesey"
    assert pi_hasty_index.search("what does hattie quill do", game="hasty")[0].entry.id == "hattie_quill"


@pytest.mark.parametrize(("game", "query", "expected"), [
    # "look" alone is a loose word of Second Look's name: the question is about the piles (since content round
    # three a ruling answers it: nobody looks at the hidden cards of a pile)
    ("hasty", "can I look at the cards in a pile", {"faq_face_down_secret", "setup_secrets", "faq_revealed_later",
                                                    "faq_choice_in_review"}),
    ("hasty", "two piles both have five cards when the review hits, which one gets looked at",
     {"faq_tie_largest", "review_largest"}),
    # the whole name, or a rare word of it, still names the card
    ("hasty", "what does Second Look do", {"second_look"}),
    ("hasty", "Filing Mix-up", {"filing_mixup"}),
    ("clash", "how many support cards does lestrade need", {"lestrade"}),
])
def test_a_loose_word_of_a_card_name_does_not_name_the_card(game, query, expected):
    from casebook.rules.cards import load_database

    assert RulesIndex.build([load_database(game)]).search(query)[0].entry.id in expected


def test_a_card_shows_its_copies_and_answers_how_many_of_it_there_are(pi_hasty_index):
    hit = pi_hasty_index.search("how many garrottes are there", game="hasty")[0]
    assert hit.entry.id == "garrotte" and hit.entry.text.endswith("Copies: 5.")
    # the copies count the card alone: the rule on copies still answers copies in general
    assert pi_hasty_index.search("how many copies of each card are there", game="hasty")[0].entry.id == "cards_copies"


def test_the_last_of_a_series_states_how_many_there_are(monkeypatch):
    """ "Once the fifth location has resolved, the case ends": five locations a case, so that rule answers "how
    many" too (the deal of five, which says it outright, may come first); without ordinals read as counts it
    falls far behind."""
    from casebook.rules import search
    from casebook.rules.cards import load_database

    def ranking() -> dict[str, float]:
        hits = RulesIndex.build([load_database("graves")]).search("how many locations are there in one case")
        return {h.entry.id: h.score for h in hits}

    read_as_counts = ranking()
    monkeypatch.setattr(search, "ORDINAL_WORDS", frozenset())
    plain = ranking()
    assert list(read_as_counts)[:2] == ["setup_locations", "resolve_last_location"]
    assert read_as_counts["resolve_last_location"] > 1.2 * plain["resolve_last_location"]


def test_which_crime_plan_asks_for_a_crime_plan():
    """A kind of two words ("Crime Plans"): "which crime plan ..." asks for one, as "which site ..." does."""
    from casebook.rules.cards import load_database

    hit = RulesIndex.build([load_database("clash")]).search("which crime plan throws out moriarty's support cards")[0]
    assert hit.entry.id == "ambassadors_daughter"


@pytest.mark.parametrize("query", ["how many support cards does lestrade need under him",
                                   "how many support cards do I need under lestrad to turn him on"])
def test_a_rare_word_of_a_card_name_names_the_card(query):
    """ "lestrade" is Inspector Lestrade's alone: the question is about him, not the rule on agents' support."""
    from casebook.rules.cards import load_database

    assert RulesIndex.build([load_database("clash")]).search(query)[0].entry.id == "lestrade"


def test_a_ruling_on_two_named_cards_meeting_comes_before_either():
    from casebook.rules.cards import load_database

    ask = "I moved my used cross-examination to another thread with tailing, does the -2 go with it"
    assert RulesIndex.build([load_database("clash")]).search(ask)[0].entry.id == "faq_used_moved"


def test_a_card_listing_its_neighbours_answers_how_many_there_are(pi_hasty_index):
    """A list on a card ("Adjacent: ...") states a count of what it lists: districts."""
    assert pi_hasty_index.search("how many districts are next to the gasworks", game="pi")[0].entry.id == "gasworks"
    assert pi_hasty_index.search("how many districts are there", game="pi")[0].entry.id == "components_city"


@pytest.mark.parametrize("game", ["hasty", "clash", "pi"])
def test_what_does_a_card_do_finds_the_card_for_every_card_of_two_words_or_more(game):
    """ "what does U-Turn do", "what does Second Look do": any card named by its whole name comes first (or a
    card printing the same text, folded into the hit, or of the same name: Holmes' and Moriarty's action cards)."""
    from casebook.rules.cards import load_database

    index = RulesIndex.build([load_database(game)])
    missed = []
    for entry in index.entries:
        if entry.kind not in ("card", "location") or not entry.text or len(tokenize(entry.name)) < 2:
            continue
        hit = index.search(f"what does {entry.name} do")[0]
        if entry.id not in (hit.entry.id, *(e.id for e in hit.also)) and hit.entry.name != entry.name:
            missed.append((entry.name, hit.entry.id))
    assert not missed


def test_a_lone_letter_joined_to_its_word_is_one_word(pi_hasty_index):
    """ "U-Turn" is not "turn": the card comes first, and the turn rules do not take it."""
    assert tokenize("U-Turn") == ["uturn"] and tokenize("a u-turn") == ["uturn"]
    assert pi_hasty_index.search("what does U-Turn do", game="hasty")[0].entry.id == "u_turn"


@pytest.mark.parametrize(("game", "query", "expected"), [
    ("hasty", "how big is the expert deck", "components"),
    ("syndicate", "how big is the draw pile after the deal", "setup_draw_pile"),
])
def test_how_big_asks_for_a_count(pi_hasty_index, game, query, expected):
    assert pi_hasty_index.search(query, game=game)[0].entry.id == expected


@pytest.mark.parametrize(("game", "query", "expected"), [
    ("clash", "the site where support counts 2", {"embankment"}),
    ("clash", "the agent that draws cards", {"dr_fell", "madame_vesper"}),
])
def test_the_kind_that_asks_for_one_of_that_kind(game, query, expected):
    """ "the site where ...", "the agent that ...": as "which site ...", the question asks for a site."""
    from casebook.rules.cards import load_database

    assert RulesIndex.build([load_database(game)]).search(query)[0].entry.id in expected


# --- issue 20, second round ----------------------------------------------------------------------

@pytest.mark.parametrize(("game", "query", "expected"), [
    ("pi", "which crime is the brass knuckles one", "extortion"),  # a crime tile's picture
    ("pi", "which suspect has the prayer beads", "the_deacon"),
    ("graves", "which mastermind is the spider one", "ezra_hollowmere"),  # an identity's symbol
])
def test_the_picture_a_card_draws_names_the_card(pi_hasty_index, graves_db, game, query, expected):
    """What a card's art draws (its picture or symbol) is indexed by its words: "the spider one" is that card."""
    index = RulesIndex.build([graves_db]) if game == "graves" else pi_hasty_index
    assert index.search(query, game=game)[0].entry.id == expected


def test_a_typo_reads_as_its_nearest_words_only(pi_hasty_index):
    """ "plyers" is "player", one edit away; "paper" and "poker", two away, are not read into it."""
    index = pi_hasty_index._games["pi"]
    assert [base.term for base in index.plan(stem("plyers"), len("plyers"), set())] == ["player"]
    assert pi_hasty_index.search("how many plyers", game="pi")[0].entry.id == "setup_players"


def test_binned_is_discarded():
    from casebook.rules.cards import load_database

    hits = RulesIndex.build([load_database("clash")]).search("end of the stage, do all the cards i played get binned")
    assert hits[0].entry.id == "archiving"


@pytest.mark.parametrize(("game", "query", "expected"), [
    # two districts named (names of P.I.'s districts count as names, as cards' do)
    ("pi", "does the cube on my investigator in little italy count when i investigate foundry row",
     "faq_not_told_twice"),
    # two one-word names, and a later clause that asks
    ("syndicate", "he led the lunatic and I threw the journey, same moons suit, does mine count", "count_mark_lead"),
])
def test_a_question_naming_two_cards_wants_the_rule_on_how_they_meet(pi_hasty_index, game, query, expected):
    assert pi_hasty_index.search(query, game=game)[0].entry.id == expected


def test_a_card_whose_ask_is_the_question_is_not_weighed_below_the_rules(pi_hasty_index):
    """The Bard's own ask is "which crown is suns": the question was written for the card, which then
    stands as a rule does, not below the rules that share its words."""
    assert pi_hasty_index.search("which crown is suns", game="syndicate")[0].entry.id == "bard"


def test_cards_printing_the_same_rules_text_fold_whatever_their_facts(pi_hasty_index, capsys):
    """Hasty's Keyhole and Spyglass print the same effect (their restrictions differ): one hit, the other
    folded into it; the command shows the folded card's own facts, so none is misread as the other's."""
    hit = pi_hasty_index.search("the card that lets you sneak a look at someone's secret suspect", game="hasty")[0]
    assert {hit.entry.id, *(e.id for e in hit.also)} == {"keyhole", "spyglass"}
    assert rules_command("hasty", "a card to look at another player's secret suspect", "--limit", "1") == 0
    out = capsys.readouterr().out
    assert "Restriction: none" in out and "Spyglass: Kind: information. Restriction: must be played at the loupe." in out


@pytest.mark.parametrize(("game", "query", "expected"), [
    # a face card is a personality, not a face-down card
    ("syndicate", "how many face cards are there", "decktet_deck"),
    # the point of a thing is its purpose, not the points it scores
    ("syndicate", "whats the point of the face down card", "plot_face_down"),
])
def test_table_words_that_look_like_rules_words(pi_hasty_index, game, query, expected):
    assert pi_hasty_index.search(query, game=game)[0].entry.id == expected


def test_my_neighbour_is_a_player_and_a_district_neighbour_is_adjacent():
    from casebook.rules.search import _rewritten_query

    assert "adjacent" not in _rewritten_query("can my neighbour lie about his case")
    assert "adjacent" in _rewritten_query("what are the neighbours of the gasworks")
    assert tokenize("is the author a face card") == ["author", "facecard"]
    assert tokenize("the face-down card") == ["facedown", "card"]
    assert tokenize("how many about face cards") == ["fac", "card"]  # Hasty's About Face


@pytest.mark.parametrize(("query", "rank", "mark"), [
    ("which of the 9s are events", 9, "event"),
    ("which 9 is a location", 9, "location"),
    ("which 6 is an event", 6, "event"),
])
def test_which_rank_asks_for_a_card_of_that_rank(pi_hasty_index, query, rank, mark):
    """ "which 9 is a location": a card of rank 9 (the one with that mark), not a rule that deals nine cards."""
    from casebook.rules.cards import load_database

    cards = {c.id: c.data for c in load_database("syndicate").all_cards()}
    card = cards.get(pi_hasty_index.search(query, game="syndicate")[0].entry.id, {})
    assert card.get("rank") == rank and mark in card.get("marks", [])


@pytest.mark.parametrize("game", ["graves", "syndicate", "clash", "pi", "hasty"])
def test_playing_by_myself_asks_how_many_may_play(pi_hasty_index, graves_db, game):
    from casebook.rules.cards import load_database

    index = RulesIndex.build([graves_db, load_database("clash")]) if game in ("graves", "clash") else pi_hasty_index
    assert index.search("only me tonight, can i play this by myself", game=game)[0].entry.id == "setup_players"
    # "my own suspect" is no player count
    assert index.search("can I play a card on my own suspect", game=game)[0].entry.id != "setup_players"


@pytest.mark.parametrize(("game", "query", "expected"), [
    ("graves", "how do we work out the winner", "end_winner"),  # working out is not work
    ("pi", "i worked out which tile my disc is for, can i put it there", "markers_move_by_hand"),  # I know it
])
def test_working_out_is_finding_out(pi_hasty_index, graves_db, game, query, expected):
    index = RulesIndex.build([graves_db]) if game == "graves" else pi_hasty_index
    assert index.search(query, game=game)[0].entry.id == expected


def test_putting_a_card_on_a_pile_is_playing_it(pi_hasty_index):
    """ "can I put my card on any suspect": the rule on playing a card (onto any suspect's pile)."""
    assert pi_hasty_index.search("can i put my card on any suspect", game="hasty")[0].entry.id == "turn_play"
    ids = [h.entry.id for h in pi_hasty_index.search("can i put my card on any suspect or only the one with the loupe",
                                                     game="hasty", limit=5)]
    assert "turn_play" in ids


@pytest.mark.parametrize("query", ["can we play it 2v2 in teams", "can we play in teams", "can we play 3 vs 1"])
def test_teams_and_2v2_ask_how_many_may_play(query):
    from casebook.rules.cards import load_database

    assert RulesIndex.build([load_database("clash")]).search(query)[0].entry.id == "setup_players"


def test_a_card_named_suit_first_is_named(index):
    """ "briefcase 3" is the 3 of Briefcase, as "3 of briefcase" is; a question telling it was played still finds
    the ruling on the case."""
    assert index.search("briefcase 3 puts how many tokens back on")[0].entry.id.endswith("briefcase_3")
    ask = "I ditched my notebook 3 to grab cards off my discards, can it grab itself back"
    assert index.search(ask)[0].entry.id == "faq_discard_order"


# --- issue 20, third round ---------------------------------------------------------------------

@pytest.mark.parametrize(("game", "query", "expected"), [
    # a card named where the player tells what happened is the situation: the rule asked about comes first
    ("syndicate", "they led the ace of moons and i dont have any moons, what can i play", "follow_ace_suit"),
    ("syndicate", "i led the ace of knots and put a 5 with knots on it face down, does the 5 count",
     "count_ace_lead"),
    ("syndicate", "he led the ace of leaves and the other enforcer threw the end, does it count 11 now",
     "faq_crown_with_ace"),
    ("hasty", "I played on Hattie Quill's empty pile, does my card get thrown away", "faq_discard_bottom_alone"),
    ("graves", "he played a 2 of shoeprints at the park and made it trump, does that last for the next location too",
     "faq_trump_duration"),
    # ... but a telling that only says which card, or opens with it, is about the card: the topic
    ("hasty", "keyhole, does everyone get to see or just me", "keyhole"),
    ("hasty", "cornelius brandt got murdered, does everyone draw or just me", "cornelius_brandt"),
    ("graves", "the detectives notebook 3, how many cards do I get back off my discard pile", "detective_notebook_3"),
])
def test_a_card_told_of_before_the_question_is_the_situation_not_the_answer(pi_hasty_index, graves_db, game, query,
                                                                          expected):
    index = RulesIndex.build([graves_db]) if game == "graves" else pi_hasty_index
    assert index.search(query, game=game)[0].entry.id == expected


def test_contractions_read_as_the_verb_and_not():
    """ "won't" is not "won" (read as "win"), and "dont" without its apostrophe is no word of the rules."""
    assert tokenize("he won't say") == tokenize("he wont say") == tokenize("he will not say") == ["say"]
    assert tokenize("why dont i get to draw") == tokenize("why don't i get to draw") == ["get", "draw"]
    assert tokenize("it isnt mine, hasn't he solved") == ["solv"]


def test_a_rank_alone_names_its_cards_when_asked_what_they_do(index):
    """ "what does the 2 do": the 2s (every Graves 2 changes the trump), not the rules that say "two" or
    "second"; "the 2" elsewhere in a question names no card."""
    assert index.search("what does the 2 do")[0].entry.id.endswith("_2")
    assert index.search("what does the 2 do")[0].entry.kind == "card"
    assert not index.search("what happens in the 2nd case")[0].entry.id.endswith("_2")


def test_a_told_then_asked_question_weighs_cards_that_only_share_its_words_as_a_question_does(index):
    """No card is named here ('question mark 2', a two-word suit before its rank, names none): the 2 that only
    shares the words 'trump' and 'question mark' stands below the ruling, as in any question."""
    ask = "I made briefcase trump with my 2 and then she played a question mark 2, whats trump now"
    assert index.search(ask)[0].entry.id == "faq_trump_duration"


def test_a_card_played_at_a_named_location_meets_it(index):
    """ "why can't I play my 3 of notebook at the palace": the location (named by 'palace', a word of no
    other name) and the card meet, and the location's rule ranks above the card it stops."""
    ids = [h.entry.id for h in index.search("why cant i play my 3 of notebook at the palace", limit=10)]
    assert ids.index("location_palace_grounds") < min(i for i, e in enumerate(ids) if e.endswith("notebook_3"))


def test_a_question_that_denies_wants_the_rule_whose_title_denies(pi_hasty_index):
    """ "why dont i get to draw": 'Enforcers never draw' before 'Draw up to five' (both hold 'draw')."""
    assert pi_hasty_index.search("why dont i get to draw", game="syndicate")[0].entry.id == "turn_enforcers_never_draw"


def test_neither_denies_as_nobody_does(index):
    """ "neither of us played a single card here": the ruling 'Neither player played a card at a location' (whose
    title denies), before the Single Case variant, which only shares the word 'single'."""
    ask = "neither of us played a single card here, what happens to the evidence"
    assert index.search(ask)[0].entry.id == "faq_empty_piles_tie"


def test_we_drew_is_a_tie_but_drawing_cards_stays_a_draw(index):
    """ "we drew on points at that location, who starts at the next one": who leads after a tie, not the lead
    player rule nor the most points; "we drew 2 cards" and "we both drew the last card" still draw."""
    assert index.search("we drew on points at that location, who starts at the next one")[0].entry.id == "faq_tie_lead"
    for told in ("we drew 2 cards", "we both drew the last card", "they drew from the deck"):
        assert "tie" not in rewrite(normalize(told), "query")


def test_a_card_named_alone_where_it_meets_another_is_also_its_rank(pi_hasty_index):
    """The Windfall is the Crown of Knots: met with the Ace of Knots, the ruling on an Ace met by its Crown
    comes up (it held none of the question's words but 'ace'); asked alone, the card stays first."""
    ids = [h.entry.id for h in pi_hasty_index.search(
        "she led the ace of knots and I threw the windfall on it, what happens", game="syndicate", limit=3)]
    assert "faq_crown_with_ace" in ids
    assert pi_hasty_index.search("whats the windfall", game="syndicate")[0].entry.id == "windfall"


@pytest.mark.parametrize(("query", "expected"), [
    ("they led the ace of moons and i dont have any moons what can i play", "follow_ace_suit"),
    ("i led the ace of knots and put a 5 with knots on it face down does the 5 count", "count_ace_lead"),
    ("I played on Hattie Quill's empty pile does my card get thrown away", "faq_discard_bottom_alone"),
])
def test_a_question_typed_on_after_what_happened_without_a_comma_is_read_as_one(pi_hasty_index, query, expected):
    game = "hasty" if "hattie" in query.lower() else "syndicate"
    assert pi_hasty_index.search(query, game=game)[0].entry.id == expected
    assert asks_somewhere(query)


def test_even_totals_are_equal_ones_but_even_if_is_no_tie(pi_hasty_index):
    """ "the totals are even" is a tie ('Equal totals'), not any rule that says 'even if'; "even if" stays an
    adverb."""
    assert pi_hasty_index.search("what happens if the totals are even", game="syndicate")[0].entry.id == "score_tie"
    assert "equal" not in rewrite(normalize("do i score even if my card didnt count"), "query")


def test_a_ruling_that_names_a_card_needs_more_than_a_common_word_to_come_before_it(pi_hasty_index):
    """ "why can't I play Family Lawyer on someone else's suspect": the card, whose restriction says so, before
    the ruling on the Traitor playing it, which holds only 'play' more of the question; the ruling on Ottoline
    Vesey's extra step (rare words the card lacks) still comes before her card."""
    hits = pi_hasty_index.search("why cant i play family lawyer on someone elses suspect", game="hasty", limit=2)
    assert [h.entry.id for h in hits] == ["family_lawyer", "faq_traitor_own"]


def test_what_a_card_counts_for_is_its_worth():
    """ "what does a support card count for": the rule that says what a Support Card is worth, not the
    Summary's 'Count each thread'; "how much does it count for" and "does it count for us" are left as they are."""
    from casebook.rules.cards import load_database

    clash = RulesIndex.build([load_database("clash")])
    assert clash.search("what does a support card count for", game="clash")[0].entry.id == "action_support"
    assert "worth" not in rewrite(normalize("does it count for us, how much does it count for"), "query")


def test_a_card_shifted_is_moved_and_a_thread_flipped_is_revealed():
    """ "can i shift my card over to a thread thats already flipped": the ruling 'May a card be moved to a revealed
    Crime Thread?', though it holds neither word the player typed."""
    from casebook.rules.cards import load_database

    clash = RulesIndex.build([load_database("clash")])
    ask = "can i shift my card over to a thread thats already flipped"
    assert clash.search(ask, game="clash")[0].entry.id == "faq_move_revealed"


def test_a_deck_gone_through_is_run_out_but_going_through_the_discards_looks_at_them():
    """ "we've gone through all the site cards, now what": the ruling on all the Sites used, not the one on looking
    through the discard piles."""
    from casebook.rules.cards import load_database

    clash = RulesIndex.build([load_database("clash")])
    assert clash.search("we've gone through all the site cards, now what", game="clash")[0].entry.id == \
        "faq_sites_run_out"
    assert "out" not in rewrite(normalize("can we go through the discard pile"), "query").split()


def test_a_game_over_ends_but_a_card_moved_over_keeps_its_word(pi_hasty_index):
    """ "when is the whole game over": 'Three mini-games' (the game ends after the third), not the rule titled 'Five
    investigators for the whole game', which only shares 'whole game'."""
    assert pi_hasty_index.search("when is the whole game over", game="pi")[0].entry.id == "game_end"
    assert "end" not in rewrite(normalize("can i move my card over?"), "query").split()


def test_cards_picked_up_are_drawn(pi_hasty_index):
    """ "im not the mastermind this turn, do i pick up cards": 'Enforcers never draw' ("pick" alone chooses, and
    'Draw up to five' held "up")."""
    ask = "im not the mastermind this turn, do i pick up cards"
    assert pi_hasty_index.search(ask, game="syndicate")[0].entry.id == "turn_enforcers_never_draw"
    assert "draw" not in rewrite(normalize("who picks the suit"), "query")


def test_a_crook_is_a_suspect(pi_hasty_index):
    """ "which crook opens safes for a living": the safecracker among P.I.'s suspects, not the ruling on open
    markers, which shares only "open"."""
    assert pi_hasty_index.search("which crook opens safes for a living", game="pi")[0].entry.id == "ingrid_halvorsen"


def test_who_gets_to_be_a_role_first_asks_who_is_the_first_one(pi_hasty_index):
    """ "who gets to be the mastermind first": the player order (the first player is the first mastermind), not
    the first mastermind's draw nor the lead."""
    assert pi_hasty_index.search("who gets to be the mastermind first", game="syndicate")[0].entry.id == "setup_players"
    assert rewrite("who is the mastermind first", "query") == "who is the first mastermind"


def test_a_card_named_by_rank_and_suit_does_not_hold_the_rest_of_the_question(pi_hasty_index):
    """The Ace of Leaves named in "do I have to play a leaf on an ace of leaves lead if I have one" is the lead,
    not the answer: the rule on following an Ace's suit, which holds the question's other words, comes first;
    named alone, the card still does."""
    ask = "do i have to play a leaf on an ace of leaves lead if i have one"
    assert pi_hasty_index.search(ask, game="syndicate")[0].entry.id == "follow_ace_suit"
    assert pi_hasty_index.search("ace of leaves", game="syndicate")[0].entry.id == "ace_of_leaves"
    assert pi_hasty_index.search("the 9 of moons and suns", game="syndicate")[0].entry.id == "pact"


def test_a_light_word_counts_less_towards_how_much_of_the_question_an_entry_holds(pi_hasty_index):
    """ "why can't I draw cards when I'm not the mastermind": 'Draw up to five' holds 'cannot' besides the words
    'Enforcers never draw' holds, but "cannot" says little of what is asked."""
    ask = "why cant i draw cards when im not the mastermind"
    assert pi_hasty_index.search(ask, game="syndicate")[0].entry.id == "turn_enforcers_never_draw"


@pytest.mark.parametrize(("game", "query"), [
    ("pi", "ok so theres 4 of us tonight, does pi work with 4"),
    ("pi", "does it work with 4 players"),
    ("syndicate", "is it any good for three players"),
    ("hasty", "does this work for 8"),
])
def test_whether_the_game_works_with_a_number_asks_the_player_count(pi_hasty_index, game, query):
    """Held-out 15's "does pi work with 4" put the printed sheets first (7th for the player count): the words
    "work with 4" ask how many may play; "does the disc work with 2 investigators" keeps its own words."""
    assert pi_hasty_index.search(query, game=game)[0].entry.id == "setup_players"
    assert pi_hasty_index.search("does the disc work with 2 investigators", game="pi")[0].entry.id != "setup_players"


@pytest.mark.parametrize(("game", "query", "expected"), [
    ("hasty", "what's the first thing you do on your turn", "turn_play"),
    ("pi", "what do i do first on my go", "turn_choices"),
])
def test_the_first_thing_i_do_asks_what_a_turn_holds(pi_hasty_index, game, query, expected):
    """Held-out 15's "start of my go as mastermind, what do i do first" (and 'the first thing I do' on a turn)
    found the first turn's or the first mastermind's rules through "first": the question asks what a turn holds.
    Asking whether something must come first keeps its word."""
    assert pi_hasty_index.search(query, game=game)[0].entry.id == expected
    assert rewrite("does it have to be the first thing i do", "query") == "does it have to be the first thing i do"


def test_in_the_same_game_is_together_not_a_tie(pi_hasty_index):
    """Held-out 15's "can we do the traitor and the suspect powers in the same game" put the ruling on equally
    large piles first: "same" leans to equal totals; in the same game the variants are played together."""
    ask = "can traitor and big hands be used in the same game"
    assert pi_hasty_index.search(ask, game="hasty")[0].entry.id == "faq_combine_variants"


def test_the_new_guy_is_a_new_player():
    """Held-out 15's "who should play holmes, the new guy or the one who knows the game" came 5th behind the
    Agents: "the new guy" is a new player (the ruling on who takes which side speaks of one)."""
    from casebook.rules.cards import load_database

    clash = RulesIndex.build([load_database("clash")])
    assert clash.search("is holmes or moriarty better for the new kid", game="clash")[0].entry.id == "faq_choose_sides"
    assert rewrite("should a newbie take moriarty", "query") == "should a new player take moriarty"


def test_a_clever_or_dumb_move_asks_for_a_tip(pi_hasty_index):
    """Held-out 15's "is stacking cards on my own guy a dumb move" found a ruling sharing "move": "dumb",
    "clever", "a good idea" ask for advice, as "best" does."""
    ask = "is it clever to put all my cards on my own suspect"
    assert pi_hasty_index.search(ask, game="hasty")[0].entry.id == "faq_tip_where_to_play"


def test_a_go_of_any_kind_is_a_turn(pi_hasty_index):
    """ "whose go is it", "two cards per go", "on the first go": a go is a turn whatever word comes before it."""
    assert rewrite("whose go is it", "query") == "whose turn is it"
    assert rewrite("can i play two cards per go", "query") == "can i play two cards per turn"
    assert pi_hasty_index.search("can i take evidence and place an investigator on one go", game="pi")[0].entry.id == \
        "turn_choices"


def test_a_magnifier_is_the_loupe(pi_hasty_index):
    """Held-out 15's "... does the magnifier still move on" found nothing by "magnifier": it is the loupe (the
    magnifying-glass token)."""
    assert pi_hasty_index.search("which way does the magnifier go", game="hasty")[0].entry.id == "turn_move_loupe"


@pytest.mark.parametrize("game", ["hasty", "pi"])
def test_what_we_do_first_at_the_table_asks_for_the_setup(pi_hasty_index, game):
    """ "what do we do first", "the first thing we do when we sit down" found the first round's rules through
    "first": with no turn, round or plot in the question, it asks how to set up; "what do we do first on our
    turn" keeps its turn."""
    assert pi_hasty_index.search("ok we have the cards out, what do we do first", game=game)[0].entry.id.startswith("setup_")
    assert rewrite("what do we do first on our turn", "query") == "what do we do first on our turn"


def test_how_does_a_turn_work_finds_the_turn_overview(pi_hasty_index):
    """ "how does a go work" (a go is a turn) put the safe first round first in Hasty: the rule on what a turn
    holds answers."""
    assert pi_hasty_index.search("how does a go work", game="hasty")[0].entry.id == "turn_play"


def test_a_deck_run_dry_has_run_out(index):
    """ "the deck's run dry, what now" put the ruling on open piles first: a deck run (or gone) dry has run out."""
    assert index.search("both our decks have gone dry, what now", game="graves")[0].entry.id == "term_exhausted_decks"
    assert rewrite("the deck ran dry", "query") == "the deck out"


@pytest.mark.parametrize(("game", "question", "want"), [
    ("clash", "embankment came up, whats different this round", "embankment"),
    ("hasty", "i put a card down on marguerite lowe, do i get anything for doing that?", "marguerite_lowe"),
    ("graves", "we've got to the palace grounds and my son wants to put down a 3, are we supposed to let him?",
     "palace_grounds"),  # the location card (or its rule entry)
])
def test_a_card_the_question_is_about_holds_what_is_asked_of_it(game, question, want):
    """NAMED_COVER: the question's other words ask what the named card does, words its text need not hold."""
    from casebook.rules.cards import load_database

    hit = RulesIndex.build([load_database(game)]).search(question, game=game, limit=1)[0]
    assert hit.entry.id in (want, f"location_{want}")


def test_an_unknown_word_is_never_read_as_a_mistyped_function_word():
    """ "per turn": "per" is one edit from "her", a function word that says nothing of what is asked."""
    from casebook.rules.cards import load_database

    game = RulesIndex.build([load_database("clash")])._games["clash"]
    assert "her" in game.postings and "per" not in game.postings
    assert all(base.term != "her" for base in game.plan("per", 3, set()))


@pytest.mark.parametrize(("game", "want"), [("graves", "overview"), ("syndicate", "overview"), ("clash", "goal"),
                                            ("pi", "goal"), ("hasty", "goal")])
def test_how_do_you_play_finds_the_overview(game, want):
    """ "how do you play" left only "play" (every rule on playing a card) even where the overview holds that very
    ask: the whole question asks for the game's overview and goal; "how do you play a 7" keeps its card."""
    from casebook.rules.cards import load_database

    idx = RulesIndex.build([load_database(game)])
    for question in ("how do you play", "How do we play this game?", "how does the game work"):
        assert idx.search(question, game=game, limit=1)[0].entry.id == want, question
    assert rewrite("how do you play a 7", "query") == "how do you play a 7"


def test_a_one_word_name_called_a_card_names_that_card():
    """ "the End card", "the Windfall card": a one-word name that many rules also hold ("end") or that a long
    question buries was only a word among the rest; called a card, it names the card, which answers what it is
    worth and which suits it has. "the end" alone stays a word of the rules."""
    from casebook.rules.cards import load_database

    idx = RulesIndex.build([load_database("syndicate")])
    for question, want in [("The Windfall card just came out. What is that one worth and which suit is it?", "windfall"),
                           ("stat line on the End card? rank, suits and marks", "end")]:
        assert idx.search(question, game="syndicate", limit=1)[0].entry.id == want, question
    assert idx.search("what happens at the end of the plot", game="syndicate", limit=1)[0].entry.id != "end"
    # "play a card" is the verb, not a card of that name
    clash = RulesIndex.build([load_database("clash")])
    assert clash.search("can I play a card onto moriarty's side", game="clash", limit=1)[0].entry.id == "turn_own_side"


@pytest.mark.parametrize(("game", "question", "want"), [
    ("hasty", "can i chuck my card on any pile or only the one the magnifier is on", "turn_play"),
    ("clash", "can i shove my card over into the thread thats already flipped", "faq_move_revealed"),
])
def test_a_card_chucked_or_shoved_onto_a_place_is_played_there(game, question, want):
    """ "chuck my card on any pile" read as discarding (chuck leans to discard) and "shove my card into the
    thread" as nothing: a card chucked, slapped or shoved on or into a place is played there, as a card put there
    is; "chuck it on the discard pile" and "chuck it away" stay discarding. Hasty's "the magnifier" is the loupe."""
    from casebook.rules.cards import load_database

    assert RulesIndex.build([load_database(game)]).search(question, game=game, limit=1)[0].entry.id == want
    assert rewrite("can i chuck my card on the discard pile", "query") == "can i chuck my card on the discard pile"
    assert rewrite("can i slap a card down on his pile", "query") == "can i play a card on his pile"


def test_totals_that_came_out_exactly_even_are_equal():
    """ "our round came out exactly even, eleven against eleven" missed the tie rule: an adverb between "came out"
    and "even" ("exactly", "dead") still makes equal totals; "even if" stays a word of the question."""
    from casebook.rules.cards import load_database

    idx = RulesIndex.build([load_database("syndicate")])
    question = "Our round came out exactly even, eleven against eleven. Does anybody get a point for that?"
    assert idx.search(question, game="syndicate", limit=1)[0].entry.id == "score_tie"
    assert rewrite("we came out dead even", "query") == "we equal"
    assert rewrite("it came out exactly even if we count the ace", "query").endswith("even if we count the ace")


def test_a_negated_question_that_two_asks_equal_prefers_the_denying_entry():
    """ "do i draw when its not my turn" is, without its function words, an ask of 'Draw up to five' as much as of
    'Enforcers never draw' (ASK_SAME for both), and an ASK_SAME entry kept the negated question from preferring the
    title that denies: between entries the question equals, the denying one comes first."""
    from casebook.rules.cards import load_database

    idx = RulesIndex.build([load_database("syndicate")])
    assert idx.search("do i draw when its not my turn", game="syndicate", limit=1)[0].entry.id == \
        "turn_enforcers_never_draw"
    assert idx.search("when do i draw", game="syndicate", limit=1)[0].entry.id == "turn_draw"


@pytest.mark.parametrize("question", ["We've just reached the Museum. What's different about playing there?",
                                      "whats special about the museum"])
def test_whats_different_about_a_place_asks_what_it_does(index, question):
    """ "what's different about playing there" leaned through "different" and "playing" to the rulings that tell
    one Museum case apart: it asks what the place does, as "what does the museum do"."""
    assert index.search(question, game="graves")[0].entry.id in ("location_museum", "museum")


def test_all_my_pieces_on_the_board_means_run_out(pi_hasty_index):
    """ "all my cubes r on the board already and i need another one" found the ruling on a shared district (cubes,
    board): every cube on the board is none left, the ruling on running out of cubes."""
    question = "all my cubes r on the board already and i need another one"
    assert pi_hasty_index.search(question, game="pi")[0].entry.id == "faq_out_of_cubes"
    assert rewrite("all of our discs are already on the table", "query") == "run out of discs"


def test_none_of_us_with_a_single_card_left_is_nobody_with_any(pi_hasty_index):
    """ "none of us have a single card left" leaned through "single" and a lone "none" to 'The last player wins':
    nobody has any cards, the rule on everyone running out."""
    question = "If none of us have a single card left, how does the game finish, and who has won then?"
    assert pi_hasty_index.search(question, game="hasty")[0].entry.id == "end_no_cards"
    assert rewrite("nobody holds even one card", "query") == "nobody has any cards"


def test_a_card_cap_is_a_limit():
    """ "does the card cap from the site still apply during the final turn": "cap" is no word of the rules, so the
    ruling on the limit in the final turn lost to the rule that triggers it; a cap on cards is their limit."""
    from casebook.rules.cards import load_database

    idx = RulesIndex.build([load_database("clash")])
    question = "does the card cap from the site still apply during the final turn"
    assert idx.search(question, game="clash", limit=1)[0].entry.id == "faq_limit_final"
    assert rewrite("is there a cap on support cards", "query") == "is there a limit on support cards"
    assert rewrite("the cap is on the table", "query") == "the cap is on the table"
    assert rewrite("whats the cap on cards", "query") == "whats the limit on cards"


@pytest.mark.parametrize("question", ["Who should go first, and how do we decide where everyone sits?",
                                      "where does everyone sit"])
def test_where_everyone_sits_is_the_seating(question):
    """ "where everyone sits" left "everyone" and a lone "sit", which lean to any rule on every player: where the
    players sit is the seating, the setup rule on the player order."""
    from casebook.rules.cards import load_database

    idx = RulesIndex.build([load_database("syndicate")])
    assert idx.search(question, game="syndicate", limit=1)[0].entry.id == "setup_players"
