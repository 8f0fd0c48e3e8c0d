"""The clash table: its screen (table.py) and its input pad (pad.py), side by side."""
