"""The PySide6 desktop app: a thin layer over inspector_app.services."""
