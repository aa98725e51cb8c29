"""The View menu: the high-contrast theme for sunlight."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QMenu, QWidget

from .common import add_action


class ViewActions:
    """`restyle()` draws what paints its own colours (evaluation, site map) again."""

    def __init__(self, menu: QMenu, settings: QSettings, *,
                 restyle: Callable[[], None], window: QWidget | None = None) -> None:
        self.settings, self._restyle, self._window = settings, restyle, window
        self.contrast = add_action(menu, "&High contrast (sunlight)", self.toggle_contrast,
                                   "Ctrl+Shift+H")
        self.contrast.setCheckable(True)
        on = settings.value("high_contrast", False, type=bool)  # a bool, typed `object`
        self.contrast.setChecked(on is True)

    def toggle_contrast(self) -> None:
        """Apply the normal or the high-contrast theme (ui/theme.py), as the View menu has
        it, show the evaluation and the site map again in its colours, and keep the
        window's size."""
        from .. import theme

        on = self.contrast.isChecked()
        self.settings.setValue("high_contrast", on)
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        window = self._window
        size = None if window is None else window.size()
        theme.apply(app, theme.HIGH_CONTRAST if on else theme.NORMAL)
        self._restyle()
        # the window keeps its size: a larger font never widens it past the screen
        if window is not None and size is not None and not (
                window.isMaximized() or window.isFullScreen()):
            window.resize(size)
