"""Write the rules search's related-word table (rules/data/related.txt) from WordNet 3.0.

`python tools/build_synonyms.py [WORDNET_DIR]` reads WordNet's data files (default
/usr/share/wordnet, as the Debian package wordnet-base installs them: `apt-get install
wordnet-base`) and writes:

* rules/data/related.txt: one line a word, `word<TAB>same-sense words<TAB>broader and narrower
  words`, each list space-separated, every word stemmed as the search stems it. A word is listed
  (as a key) when it occurs in the text of our card databases or is a common word (WordNet has
  seen it tagged in running text); the words it points to only when they occur in our databases
  (a word no entry holds can find nothing). Only a word's commonest senses count (RELATED_SENSES).
* rules/data/LICENSE-wordnet.txt: WordNet's licence, which must ship beside the table.

The search (rules/search.py) expands a query word with these at a small share of a match.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from casebook.rules.cards import load_database  # noqa: E402
from casebook.rules.search import STOPWORDS, RulesIndex, stem  # noqa: E402

WORDNET = Path("/usr/share/wordnet")
OUT = ROOT / "rules" / "data"
POS = ("noun", "verb", "adj", "adv")
RELATED_SENSES = 2  # a word's commonest senses that count (WordNet lists them commonest first)
MAX_RELATED = 12  # words kept on each side of a line, most shared first
BROADER = frozenset(["@", "@i"])  # hypernyms
NARROWER = frozenset(["~", "~i"])  # hyponyms
SIMILAR = frozenset(["&"])  # an adjective's similar ones: read as the same sense

LICENSE_HEAD = """WordNet 3.0 (rules/data/related.txt is derived from it by tools/build_synonyms.py)

"""
WORDNET_LICENSE = """WordNet Release 3.0

This software and database is being provided to you, the LICENSEE, by
Princeton University under the following license.  By obtaining, using
and/or copying this software and database, you agree that you have
read, understood, and will comply with these terms and conditions.:

Permission to use, copy, modify and distribute this software and
database and its documentation for any purpose and without fee or
royalty is hereby granted, provided that you agree to comply with
the following copyright notice and statements, including the disclaimer,
and that the same appear on ALL copies of the software, database and
documentation, including modifications that you make for internal
use or for distribution.

WordNet 3.0 Copyright 2006 by Princeton University.  All rights reserved.

THIS SOFTWARE AND DATABASE IS PROVIDED "AS IS" AND PRINCETON
UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES, EXPRESS OR
IMPLIED.  BY WAY OF EXAMPLE, BUT NOT LIMITATION, PRINCETON
UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES OF MERCHANT-
ABILITY OR FITNESS FOR ANY PARTICULAR PURPOSE OR THAT THE USE
OF THE LICENSED SOFTWARE, DATABASE OR DOCUMENTATION WILL NOT
INFRINGE ANY THIRD PARTY PATENTS, COPYRIGHTS, TRADEMARKS OR
OTHER RIGHTS.

The name of Princeton University or Princeton may not be used in
advertising or publicity pertaining to distribution of the software
and/or database.  Title to copyright in this software, database and
any associated documentation shall at all times remain with
Princeton University and LICENSEE agrees to preserve same.
"""


def vocabulary() -> set[str]:
    """Every stemmed word the search indexes in our card databases (all games under cards/)."""
    games = sorted(p.name for p in (ROOT / "cards").iterdir() if (p / "game.yaml").is_file())
    index = RulesIndex.build([load_database(g) for g in games])
    words: set[str] = set()
    for game in index.games:
        words |= {t for t in index._games[game].postings if t.isalpha()}
    return words


def read_synsets(folder: Path) -> dict[tuple[str, int], tuple[list[str], list[tuple[str, str, int]]]]:
    """(pos, offset) -> (single words of the synset, pointers (symbol, pos, offset))."""
    synsets = {}
    for pos in POS:
        for line in (folder / f"data.{pos}").read_text(encoding="utf-8").splitlines():
            if line.startswith(" "):
                continue  # the licence header
            parts = line.split(" | ")[0].split()
            offset, count = int(parts[0]), int(parts[3], 16)
            words = [parts[4 + 2 * i].lower() for i in range(count)]
            at = 4 + 2 * count
            pointers = []
            for i in range(int(parts[at])):
                symbol, target, tpos = parts[at + 1 + 4 * i:at + 4 + 4 * i]
                pointers.append((symbol, {"n": "noun", "v": "verb", "a": "adj", "s": "adj", "r": "adv"}[tpos],
                                 int(target)))
            words = [w.split("(")[0] for w in words]
            synsets[pos, offset] = ([w for w in words if w.isalpha()], pointers)
    return synsets


def read_index(folder: Path) -> dict[str, list[tuple[str, int, bool]]]:
    """word -> its senses, commonest first: (pos, synset offset, seen tagged in running text)."""
    senses: dict[str, list[tuple[str, int, bool]]] = {}
    for pos in POS:
        for line in (folder / f"index.{pos}").read_text(encoding="utf-8").splitlines():
            if line.startswith(" "):
                continue
            parts = line.split()
            word, count, pointers = parts[0], int(parts[2]), int(parts[3])
            if not word.isalpha():
                continue
            tagged = int(parts[5 + pointers])
            offsets = [int(o) for o in parts[6 + pointers:6 + pointers + count]]
            senses.setdefault(word, []).extend((pos, o, n < tagged) for n, o in enumerate(offsets))
    return senses


def build(folder: Path) -> list[str]:
    vocab = vocabulary()
    synsets = read_synsets(folder)
    senses = read_index(folder)
    table: dict[str, tuple[dict[str, int], dict[str, int]]] = {}
    for word, wsenses in senses.items():
        key = stem(word)
        if key in STOPWORDS or len(key) < 3:
            continue
        common = any(tagged for _, _, tagged in wsenses)
        if key not in vocab and not common:
            continue
        same, near = table.setdefault(key, ({}, {}))
        by_pos: dict[str, int] = {}
        for pos, offset, _tagged in wsenses:
            by_pos[pos] = by_pos.get(pos, 0) + 1
            if by_pos[pos] > RELATED_SENSES:
                continue
            words, pointers = synsets[pos, offset]
            for w in words:
                same[stem(w)] = same.get(stem(w), 0) + 1
            for symbol, tpos, target in pointers:
                into = same if symbol in SIMILAR else near if symbol in BROADER | NARROWER else None
                if into is None:
                    continue
                for w in synsets[tpos, target][0]:
                    into[stem(w)] = into.get(stem(w), 0) + 1
    lines = []
    for key in sorted(table):
        same, near = table[key]
        keep_same = [w for w, _ in sorted(same.items(), key=lambda i: (-i[1], i[0]))
                     if w != key and w in vocab and w not in STOPWORDS][:MAX_RELATED]
        keep_near = [w for w, _ in sorted(near.items(), key=lambda i: (-i[1], i[0]))
                     if w != key and w in vocab and w not in STOPWORDS and w not in keep_same][:MAX_RELATED]
        if keep_same or keep_near:
            lines.append(f"{key}\t{' '.join(keep_same)}\t{' '.join(keep_near)}")
    return lines


def main() -> int:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else WORDNET
    if not (folder / "data.noun").is_file():
        print(f"build_synonyms: no WordNet data files in {folder} (data.noun missing); install them with "
              "`apt-get install wordnet-base` or name their folder", file=sys.stderr)
        return 1
    lines = build(folder)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "related.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (OUT / "LICENSE-wordnet.txt").write_text(LICENSE_HEAD + WORDNET_LICENSE, encoding="utf-8")
    size = (OUT / "related.txt").stat().st_size
    print(f"wrote {OUT / 'related.txt'}: {len(lines)} words, {size / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
