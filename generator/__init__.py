"""Card database -> neutral scene -> PDF (ReportLab) / PNG (Pillow); sheets and exports."""
