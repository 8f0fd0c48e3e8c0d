"""Card database -> neutral scene -> PDF (ReportLab) / PNG (Pillow); sheets and exports."""

if __name__ != "casebook.generator":  # this folder reached by a second name (the repository on sys.path)
    raise ImportError(f"{__name__} is the package casebook.generator: import it by that name")
