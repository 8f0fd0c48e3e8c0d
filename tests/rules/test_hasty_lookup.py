"""Hasty Accusations rules lookup (issue 20): players' questions, typed as at the table, find the
entry that answers them FIRST, on the real Hasty database.

Each question below came first with a wrong entry before the entries got the players' words
(keywords, asks and rule texts in cards/hasty/); none is word for word an ask of the entry it
expects, so each checks that the words generalise rather than that an ask is repeated.
"""

from __future__ import annotations

import pytest

from casebook.rules.search import RulesIndex


@pytest.fixture(scope="module")
def hasty_index() -> RulesIndex:
    from casebook.rules.cards import load_database

    return RulesIndex.build([load_database("hasty")])


@pytest.mark.parametrize(("query", "expected"), [
    # the row's size is stated per player count, so it beats the player count rule
    ("how many suspects with 7 players", "setup_row"),
    # the elimination in table words
    ("they killed my guy, now what", "review_elimination"),
    ("my suspect just got bumped off", "review_elimination"),
    # counts the copies and kinds of the deck
    ("how many kill cards are there", "cards_kinds"),
    ("how many protect cards in the whole deck", "cards_kinds"),
    ("how big is the advanced deck", "components"),
    # the card that lowers the copies (or protects) acts only on what comes after it
    ("accomplice came up after the almonds, does it kill now", "faq_revealed_later"),
    ("the poison showed up before the alibi, is the suspect dead", "faq_revealed_later"),
    # several players can share the win when the cards run out
    ("can two people win together", "end_no_cards"),
    ("is it possible for 3 players to share the win", "end_no_cards"),
    # turn order and the loupe's step after the draw
    ("which way round the table do we go", "setup_hands"),
    ("do i pick up before the magnifying glass moves", "turn_move_loupe"),
    # a murder in the middle of a review
    ("do we keep revealing after someone dies in the review", "review_murder"),
    ("what happens to the body's pile", "review_murder"),
    # the number of action cards of one kind is the card's own
    ("how many garrotte cards are there", "garrotte"),
    # questions no entry answered before: bluffing, Winifred Saltash's discard against the draw
    ("can i fib about my suspect", "faq_bluffing"),
    ("the landlady made me discard, is that before i draw my cards back", "faq_power_discard_first"),
    # content round two: the one card a turn asked as a count, and the draw asked by its moment
    ("can i play two cards", "turn_play"),
    ("do i draw at the end of my turn", "turn_draw"),
    ("how do i keep my suspect safe", "cards_protect"),
    ("when do i lose", "review_elimination"),  # the basic game, not the Traitor's ruling
    # content round three: what the loupe is for, rulings where the draft is silent (variants together, a
    # pile's size, hidden cards), and facts the entries lacked (no passing, nobody shares a secret suspect,
    # a round, an unowned suspect's murder)
    ("whats the magnifying glass token actually for", "loupe_overview"),
    ("can we play the traitor variant and big hands at the same time", "faq_combine_variants"),
    ("how many cards can go in one pile, is there a max", "faq_pile_size"),
    ("can i peek at whats in a pile", "faq_face_down_secret"),
    ("am i allowed to just pass", "turn_stuck"),
    ("could two of us end up with the same secret suspect", "setup_secrets"),
    ("what's a round", "turn_round"),
    ("does every player get one go per round", "turn_round"),
    ("someone's suspect no one had got murdered, is anybody out", "review_murder"),
    ("hattie quill's pile was empty when i played, is my card thrown away", "faq_discard_bottom_alone"),
    # a second pass of table questions: a tip where the draft says nothing, and players' words
    ("is it a bad idea to put cards on my own suspect", "faq_tip_where_to_play"),
    ("what does reviewing mean", "review_reveal"),
    ("do we need the suspect powers", "variant_powers"),
    ("does the traitor get a suspect card", "variant_traitor"),
    ("what is the discard pile", "faq_empty_deck"),
    ("if my suspect is protected and a kill card comes up what happens", "cards_protect"),
    ("does the protect card need to come before the kill card", "faq_revealed_later"),
    ("my suspect died", "review_elimination"),
    ("what happens if nobody dies in the review", "review_end"),
    ("can the review kill two people", "review_murder"),
    ("what does the card icon mean on a suspect", "variant_powers"),
    ("can i play on a suspect that someone else owns", "turn_play"),
    ("does the app keep count of how big each pile is", "companion_app"),
    ("how many base set cards are kill cards", "cards_kinds"),
    ("big hands how many cards does everyone get", "variant_big_hands"),
    ("with only two of us left does u-turn do anything", "faq_reverse_two_players"),
    ("can i look at a card someone else played face down", "faq_face_down_secret"),
    ("can the traitor be eliminated", "variant_traitor"),
    ("with big hands what if i run out of cards", "variant_big_hands"),
    ("suspect powers, which one triggers when i play there", "variant_powers"),
    # a kind counted in one set: the kind, not the set's size, is asked for
    ("how many pile cards in the expert set", "cards_kinds"),
    ("how many review cards in the base set", "cards_kinds"),
    # rulebook pass: the suspects left undealt, who carries out a revealed card, the loupe after a turn,
    # a longer row than the table's, a death power told apart from a play power of the same effect
    ("what do i do with the suspects nobody got", "setup_secrets"),
    ("who carries out the card effects in a review", "review_choice"),
    ("where does the loupe go after my turn", "turn_move_loupe"),
    ("can we use more suspects than recommended", "setup_row"),
    ("which suspect makes the next player miss a turn when killed", "rufus_galloway"),
    # a murdered suspect leaves the row for good; what protection means
    ("does a murdered suspect get replaced", "review_murder"),
    ("can i still play on a suspect who was killed", "review_murder"),
    ("what does protect mean", "cards_protect"),
    # a review with every pile empty (a ruling, as the engine plays it); a card that empties a whole pile
    ("what if a review has no cards", "faq_all_piles_empty"),
    ("which card throws away the whole pile", "clean_sweep"),
    # the goal (everyone for themselves), Big Hands with an empty own pile or with the Traitor, the loupe's direction
    ("is it cooperative", "goal"),
    ("big hands my suspect pile is empty and i am out of cards", "faq_big_hands_review"),
    ("can we play big hands with the traitor", "faq_combine_variants"),
    ("can the loupe go left", "turn_move_loupe"),
    # effects are never optional (the rulebook: a card's power triggers when revealed); a suspect nobody holds;
    # a hand above 4 after extra draws; a card in the wrong spot
    ("is the card effect optional", "faq_effects_not_optional"),
    ("can i play a card on a suspect that nobody has", "turn_play"),
    ("what if i have more than 4 cards", "turn_draw"),
    ("what if someone plays a card in the wrong spot", "cards_restrictions"),
    # round six: the fewest suspects, player elimination in gamer's words, owning up when your suspect dies, the
    # pile after a review, secret suspects per player, who carries out a revealed card
    ("whats the minimum number of suspects", "setup_row"),
    ("is there player elimination", "review_elimination"),
    ("do i have to reveal my suspect when it dies", "review_elimination"),
    ("what happens to the cards in the pile after a review", "review_end"),
    ("how many suspect cards does each player get", "setup_secrets"),
    ("who does what the card says in a review", "review_choice"),
    # how a suspect is killed (an overview), what you played stays unsaid (a ruling), drawing back, the loupe after
    # a murder, kill and murder cards are one kind
    ("how do murders work in this game", "murder_overview"),
    ("do i have to tell people what card i played", "faq_face_down_secret"),
    ("when do i draw my cards back", "turn_draw"),
    ("does the loupe stay on a suspect that got killed", "faq_loupe_after_murder"),
    ("what is a kill card vs a murder card", "cards_kinds"),
    # gamer's and parent's words: social deduction, the Traitor as a player, a round's structure, an eliminated
    # child who only watches
    ("is this social deduction", "goal"),
    ("does the traitor count as a player", "variant_traitor"),
    ("how does the round structure work", "turn_round"),
    ("my son's suspect got killed early and he's upset, does he just sit and watch from now on?", "review_elimination"),
    ("does the traitor draw cards", "variant_traitor"),
    # gamers' jargon
    ("how does the loupe advance", "turn_move_loupe"),
    ("do effects resolve immediately at the loupe", "turn_loupe"),
    ("is there a tiebreaker for the review", "faq_tie_largest"),
    # a parent's long questions
    ("my daughter's secret person was killed and she had to say so, can she still play her remaining cards?",
     "review_elimination"),
    ("only my husband and i are left, neither of us has any cards and the deck is empty, who wins?", "end_no_cards"),
    # a teenager's slang
    ("can i yeet a card on anyone's suspect", "turn_play"),
    ("is the review thing random", "review_largest"),
    ("is it normal that my suspect died before i even had a turn", "faq_first_round"),
    ("when the cards run out completely do we shuffle the used ones back in", "faq_empty_deck"),
    # round seven (held-out 20-21 misses, other words): a face-up card met again in a review, denying your own
    # suspect, everyone out of cards, play-then-draw order, the first time the loupe passes the end
    ("a face up card sits in the pile being reviewed, do we do it a second time", "faq_face_up_in_review"),
    ("can i deny that the cook is my suspect", "faq_bluffing"),
    ("what if none of us has a card left at all, who wins", "end_no_cards"),
    ("do i play first or draw first", "turn_draw"),
    ("the loupe went past the last suspect for the first time, is there a review", "turn_first_round"),
    # rulebook facts no set had asked: who starts and the turn order, the pile once a review is over
    ("which player begins", "setup_hands"),
    ("which order do we take turns", "setup_hands"),
    ("once the review is done what do we do with what's left of the pile", "review_end"),
    # the Traitor left with other suspects in the row, drawing in Big Hands, a card on a pile its icon forbids
    ("the traitor is still in but everyone else is out, who wins", "variant_traitor"),
    ("big hands, do we still draw up to 4", "variant_big_hands"),
    ("my son played a card at his own suspect that says it can't go there, what now", "cards_restrictions"),
    # the hand of a player who is out
    ("what happens to my hand when im out", "review_elimination"),
    # a step forgotten or done twice (a ruling: put it right from where the game stands)
    ("the magnifier didn't get moved last go, can we fix it", "faq_forgotten_step"),
    ("my daughter picked up 5 cards by accident", "faq_forgotten_step"),
    # checking the box: "is anything missing" asks for the deck's size, not a card's text
    ("how many cards make up the action deck, is anything missing", "components"),
    ("we might be missing cards, how many should the deck have", "components"),
    # after a review: where the loupe goes, with the review said to be finished
    ("review finished, where does the magnifier go", "review_end"),
    # the Traitor's single suspect asked with the variant named first
    ("traitor variant, the row is down to a single suspect", "faq_traitor_one_suspect"),
    # the safe first round, the review said as "check one of the piles"
    ("first time the magnifying glass gets past the end, do we check one of the piles", "turn_first_round"),
])
def test_a_table_question_finds_its_entry_first(hasty_index, query, expected):
    hits = hasty_index.search(query, game="hasty")
    assert hits, f"nothing found for {query!r}"
    assert hits[0].entry.id == expected, f"{query!r}: got {[h.entry.id for h in hits[:3]]}"


def test_every_action_card_answers_how_many_of_it_are_in_the_deck(hasty_index):
    # the copies are not indexed, so only the card's ask can answer "how many X are there";
    # U-Turn is left out: the search drops the one-letter word "u", so its name reads "turn"
    from casebook.rules.cards import load_database

    db = load_database("hasty")
    wrong = []
    for card in db.components["actions"].cards:
        if card.id == "u_turn":
            continue
        name = card.data["name"]
        first = hasty_index.search(f"how many {name} cards are in the deck", game="hasty")[0]
        if card.id not in {first.entry.id, *(e.id for e in first.also)}:
            wrong.append((name, first.entry.id))
    assert not wrong


def test_the_restriction_rule_names_every_restricted_card():
    # "which cards can't go at the loupe": the rule answers it only if it names each card under its restriction
    from casebook.rules.cards import load_database

    db = load_database("hasty")
    text = next(r.text for r in db.rules if r.id == "cards_restrictions")
    heading = {"must_loupe": "Must be played at the loupe:", "cant_loupe": "Can't be played at the loupe:",
               "must_own": "Must be played at your own suspect:", "cant_own": "Can't be played at your own suspect:"}
    listed = {k: text.split(h, 1)[1].split(".", 1)[0] for k, h in heading.items() if h in text}
    missing = [(card.data["name"], card.data["restriction"]) for card in db.components["actions"].cards
               if card.data["restriction"] != "none" and card.data["name"] not in listed.get(card.data["restriction"], "")]
    assert not missing, f"cards_restrictions does not list: {missing}"


def test_every_card_and_suspect_answers_whether_it_is_any_good(hasty_index):
    # "is X any good": a player asking about a named card wants the card first, not the general playing tip
    from casebook.rules.cards import load_database

    db = load_database("hasty")
    wrong = []
    for card in [*db.components["actions"].cards, *db.components["suspects"].cards]:
        name = card.data["name"]
        for question in (f"is {name} any good", f"is {name} good"):
            first = hasty_index.search(question, game="hasty")[0]
            if card.id not in {first.entry.id, *(e.id for e in first.also)}:
                wrong.append((question, first.entry.id))
    assert not wrong
