"""Entry point of the packaged companion (buildozer runs main.py)."""

from companion.app import main

main()
