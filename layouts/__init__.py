"""Card sizes, sheet set-ups and each game's face and back layouts, shipped as package data.

Read through `casebook.generator.layouts.LAYOUTS_DIR`, found with importlib.resources.
"""

if __name__ != "casebook.layouts":  # this folder reached by a second name (the repository on sys.path)
    raise ImportError(f"{__name__} is the package casebook.layouts: import it by that name")
