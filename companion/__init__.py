"""The table companion (Kivy): one phone on the table keeping each game's state through the rules core.

Nothing imports it but `casebook app` and the phone package's main.py.
"""

if __name__ != "casebook.companion":  # this folder reached by a second name (the repository on sys.path)
    raise ImportError(f"{__name__} is the package casebook.companion: import it by that name")
