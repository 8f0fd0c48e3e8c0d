"""The rules core: card databases, game engines, scoring, logs and rules search (pure Python)."""
