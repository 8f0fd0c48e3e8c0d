"""The rules core: card databases, game engines, scoring, logs and rules search (pure Python)."""

if __name__ != "casebook.rules":  # this folder reached by a second name (the repository on sys.path)
    raise ImportError(f"{__name__} is the package casebook.rules: import it by that name")
