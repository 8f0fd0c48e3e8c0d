"""The card databases of the five games (one folder each), shipped as package data.

Read through `casebook.rules.cards.CARDS_DIR`, found with importlib.resources.
"""

if __name__ != "casebook.cards":  # this folder reached by a second name (the repository on sys.path)
    raise ImportError(f"{__name__} is the package casebook.cards: import it by that name")
