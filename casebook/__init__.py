"""The `casebook` command: a thin layer over rules, generator and companion."""
