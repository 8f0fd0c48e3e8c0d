"""The Kivy table companion (to come: see the companion issue). Nothing imports it."""
