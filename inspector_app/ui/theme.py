"""The app's two colour themes: the normal one and high contrast for sunlight.

Every colour the window shows comes from here: the palette (placeholder text included),
the few stylesheets, the evaluation's HTML, the banners and the site map. Each theme meets
WCAG 2.x AA: 4.5:1 for text against what it sits on, 3:1 for field borders and focus rings
(tests/ui/test_theme.py measures every pair).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

Group = QPalette.ColorGroup
Role = QPalette.ColorRole
BASE_POINT_SIZE = "inspector_base_point_size"  # the app's font size before any scaling


@dataclass(frozen=True, kw_only=True)
class Tone:
    """A banner: its text, background and border."""

    text: str
    background: str
    border: str


@dataclass(frozen=True, kw_only=True)
class Theme:
    name: str
    font_scale: float
    # the palette
    window: str
    window_text: str
    base: str
    alternate_base: str
    text: str
    placeholder: str
    button: str
    button_text: str
    highlight: str
    highlighted_text: str
    link: str
    link_visited: str
    tooltip_base: str
    tooltip_text: str
    disabled_text: str
    # borders and focus rings of fields, buttons and check boxes
    border: str
    focus: str
    border_px: int
    focus_px: int
    # words that carry meaning
    muted: str          # citations, "as of"
    failure: str
    substandard: str    # also "provisional", "AHJ determination required"
    acceptable: str
    neutral: str        # incomplete, not inspected
    # banners, and the evaluation's prompts
    notice: Tone        # demo data
    warning: Tone       # a coarse shoreline layer
    problem: Tone       # a value the form refused
    prompt: Tone
    heading_px: int
    # the site map
    map_paper: str
    map_frame: str
    map_water: str
    map_band: QColor    # the 200-ft band, drawn over paper and water
    map_shore: str
    map_area_line: str
    map_area_fill: QColor
    map_feature: str    # features and their labels
    map_distance: str   # the distance line and its label
    map_handle: str     # the fill of a draggable corner
    map_lot: str        # the parcel's lot line (tax map)
    map_neighbour: str  # neighbouring lots and their SBL labels
    map_well: str       # wells on neighbouring parcels

    @property
    def high_contrast(self) -> bool:
        return self.name == "high contrast"

    def outcome_colour(self, standing: str) -> str:
        return {"failure": self.failure, "substandard": self.substandard,
                "acceptable": self.acceptable}.get(standing, self.neutral)

    def palette(self) -> QPalette:
        p = QPalette()
        for role, colour in (
                (Role.Window, self.window), (Role.WindowText, self.window_text),
                (Role.Base, self.base), (Role.AlternateBase, self.alternate_base),
                (Role.Text, self.text), (Role.PlaceholderText, self.placeholder),
                (Role.Button, self.button), (Role.ButtonText, self.button_text),
                (Role.BrightText, self.base),  # on Dark, which is the border colour
                (Role.Highlight, self.highlight), (Role.HighlightedText, self.highlighted_text),
                (Role.Accent, self.highlight),
                (Role.Link, self.link), (Role.LinkVisited, self.link_visited),
                (Role.ToolTipBase, self.tooltip_base), (Role.ToolTipText, self.tooltip_text),
                (Role.Light, self.base), (Role.Midlight, self.alternate_base),
                (Role.Mid, self.border), (Role.Dark, self.border), (Role.Shadow, self.border)):
            p.setColor(role, QColor(colour))
        for role in (Role.WindowText, Role.Text, Role.ButtonText, Role.PlaceholderText):
            p.setColor(Group.Disabled, role, QColor(self.disabled_text))
        p.setColor(Group.Disabled, Role.Highlight, QColor(self.disabled_text))
        p.setColor(Group.Disabled, Role.HighlightedText, QColor(self.base))
        return p

    def banner(self, tone: Tone) -> str:
        return (f"color: {tone.text}; background: {tone.background}; "
                f"border: 1px solid {tone.border}; padding: 6px;")

    def stylesheet(self) -> str:
        """The application stylesheet: fields with a visible border and focus ring, check
        boxes, banners by their `tone` property, the heading; in high contrast also buttons,
        tabs, menus and scroll bars, which the style would otherwise draw black on black."""
        b, f = self.border_px, self.focus_px
        pad = f - b  # a focused field keeps its size: the ring grows into the padding
        fields = "QLineEdit, QComboBox, QAbstractSpinBox, QPlainTextEdit"
        focused = ("QLineEdit:focus, QComboBox:focus, QAbstractSpinBox:focus, "
                   "QPlainTextEdit:focus")
        rules = [
            # a stylesheet colour would otherwise make the placeholder half transparent
            f"{fields} {{ color: {self.text}; background: {self.base}; "
            f"placeholder-text-color: {self.placeholder}; "
            f"border: {b}px solid {self.border}; padding: {pad + 1}px; }}",
            f"{focused} {{ border: {f}px solid {self.focus}; padding: 1px; }}",
            f"{fields.replace(', ', ':disabled, ')}:disabled {{ color: {self.disabled_text}; "
            f"border-color: {self.disabled_text}; }}",
            # a spin box or combo box draws its own line edit inside its border
            "QAbstractSpinBox QLineEdit, QComboBox QLineEdit { border: none; padding: 0px; "
            "background: transparent; }",
            # a choice list drops down as a list of its own (up to the box's
            # maxVisibleItems rows), opening upward when the box is low on the screen,
            # instead of the style's list laid over the box and cut off at the screen's edge
            "QComboBox { combobox-popup: 0; }",
            # an editor inside a table cell has no room for padding
            "QAbstractItemView QLineEdit { padding: 0px; }",
            f"QCheckBox::indicator {{ width: 13px; height: 13px; background: {self.base}; "
            f"border: {b}px solid {self.border}; }}",
            # checked: a solid box in the selection colour
            f"QCheckBox::indicator:checked {{ background: {self.highlight}; "
            f"border: {b}px solid {self.highlight}; }}",
            f"QCheckBox::indicator:focus {{ border: {f}px solid {self.focus}; }}",
            f"QCheckBox::indicator:disabled {{ border-color: {self.disabled_text}; }}",
            f'QLabel[tone="notice"] {{ {self.banner(self.notice)} }}',
            f'QLabel[tone="warning"] {{ {self.banner(self.warning)} }}',
            f'QLabel[tone="problem"] {{ {self.banner(self.problem)} }}',
            f'QLabel[role="heading"] {{ color: {self.window_text}; font-size: '
            f"{self.heading_px}px; font-weight: bold; padding: 4px; }}",
            f"QToolTip {{ color: {self.tooltip_text}; background: {self.tooltip_base}; "
            f"border: 1px solid {self.border}; }}",
        ]
        if self.high_contrast:
            rules += [
                f"QPushButton {{ color: {self.button_text}; background: {self.button}; "
                f"border: {b}px solid {self.border}; padding: {pad + 3}px 10px; }}",
                f"QPushButton:focus {{ border: {f}px solid {self.focus}; padding: 3px 8px; }}",
                f"QPushButton:pressed, QPushButton:checked {{ color: {self.highlighted_text}; "
                f"background: {self.highlight}; }}",
                f"QPushButton:disabled {{ color: {self.disabled_text}; "
                f"border-color: {self.disabled_text}; }}",
                f"QTabBar::tab {{ color: {self.window_text}; background: {self.window}; "
                f"border: 1px solid {self.border}; padding: 5px 10px; }}",
                f"QTabBar::tab:selected {{ color: {self.highlighted_text}; "
                f"background: {self.highlight}; }}",
                f"QTabBar::tab:disabled {{ color: {self.disabled_text}; }}",
                f"QTabWidget::pane {{ border: 1px solid {self.border}; }}",
                f"QMenu {{ border: 1px solid {self.border}; }}",
                f"QMenu::separator {{ height: 1px; background: {self.border}; "
                "margin: 4px 8px; }",
                f"QComboBox QAbstractItemView {{ border: 1px solid {self.border}; }}",
                f"QScrollBar {{ background: {self.window}; border: 1px solid {self.border}; }}",
                "QScrollBar:vertical { width: 16px; }",
                "QScrollBar:horizontal { height: 16px; }",
                f"QScrollBar::handle {{ background: {self.border}; margin: 3px; }}",
                "QScrollBar::handle:vertical { min-height: 32px; }",
                "QScrollBar::handle:horizontal { min-width: 32px; }",
                "QScrollBar::add-line, QScrollBar::sub-line { width: 0px; height: 0px; }",
                "QScrollBar::add-page, QScrollBar::sub-page { background: none; }",
            ]
        return "\n".join(rules)


NORMAL = Theme(
    name="normal", font_scale=1.0,
    window="#efefef", window_text="#1a1a1a", base="#ffffff", alternate_base="#f4f4f4",
    text="#1a1a1a", placeholder="#636363", button="#efefef", button_text="#1a1a1a",
    highlight="#0b5cad", highlighted_text="#ffffff", link="#0b57b0", link_visited="#6a2c91",
    tooltip_base="#ffffdc", tooltip_text="#1a1a1a", disabled_text="#6b6b6b",
    border="#6e6e6e", focus="#0b5cad", border_px=1, focus_px=2,
    muted="#595959", failure="#b00020", substandard="#8a5000", acceptable="#176319",
    neutral="#4d4d4d",
    notice=Tone(text="#4a3b00", background="#fff4ce", border="#8a6d00"),
    warning=Tone(text="#5a2d00", background="#ffe3c2", border="#9c4a00"),
    problem=Tone(text="#7a0010", background="#fde2e2", border="#b00020"),
    prompt=Tone(text="#1a1a1a", background="#fff4ce", border="#8a6d00"),
    heading_px=15,
    map_paper="#fbfbf7", map_frame="#767676", map_water="#d6e9f8",
    map_band=QColor(255, 200, 110, 110), map_shore="#1d6fb8", map_area_line="#5a3a1a",
    map_area_fill=QColor(140, 90, 40, 60), map_feature="#174a24", map_distance="#8f1d14",
    map_handle="#ffffff", map_lot="#a3006e", map_neighbour="#4f4f4f", map_well="#0b4f9c")

HIGH_CONTRAST = Theme(
    name="high contrast", font_scale=1.15,
    window="#000000", window_text="#ffffff", base="#000000", alternate_base="#1a1a1a",
    text="#ffffff", placeholder="#bdbdbd", button="#000000", button_text="#ffff00",
    highlight="#ffff00", highlighted_text="#000000", link="#00e5ff", link_visited="#ff9cff",
    tooltip_base="#000000", tooltip_text="#ffffff", disabled_text="#9e9e9e",
    border="#ffffff", focus="#ffff00", border_px=1, focus_px=3,
    muted="#d0d0d0", failure="#ff8080", substandard="#ffb84d", acceptable="#66e066",
    neutral="#e0e0e0",
    notice=Tone(text="#ffe680", background="#000000", border="#ffe680"),
    warning=Tone(text="#ffb870", background="#000000", border="#ffb870"),
    problem=Tone(text="#ff9090", background="#000000", border="#ff9090"),
    prompt=Tone(text="#ffffff", background="#332b00", border="#ffe680"),
    heading_px=17,
    map_paper="#000000", map_frame="#ffffff", map_water="#002b55",
    map_band=QColor(120, 70, 0, 120), map_shore="#4fc3ff", map_area_line="#ffb060",
    map_area_fill=QColor(255, 150, 50, 50), map_feature="#7cfc00", map_distance="#ffb0b0",
    map_handle="#000000", map_lot="#ff70d8", map_neighbour="#d8d8d8", map_well="#7fd8ff")

THEMES = (NORMAL, HIGH_CONTRAST)
_active = NORMAL


def active() -> Theme:
    return _active


def apply(app: QApplication, theme: Theme) -> None:
    """Make `theme` the app's: palette, stylesheet and font size (scaled from the size the
    app started with, so applying a theme twice changes nothing)."""
    global _active
    _active = theme
    base = app.property(BASE_POINT_SIZE)
    if base is None:
        base = app.font().pointSizeF()
        app.setProperty(BASE_POINT_SIZE, base)
    # Each change is sent to every widget: make only the ones that differ.
    size = float(base) * theme.font_scale
    if abs(app.font().pointSizeF() - size) > 1e-6:
        font = app.font()
        font.setPointSizeF(size)
        app.setFont(font)
    palette = theme.palette()
    if app.palette() != palette:
        app.setPalette(palette)
    sheet = theme.stylesheet()
    if app.styleSheet() != sheet:
        app.setStyleSheet(sheet)
