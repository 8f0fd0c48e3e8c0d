"""The only modules that touch ReportLab and Pillow."""
