"""Both themes are readable: every foreground/background pair that the palette, the
stylesheets, the evaluation's HTML and the site map put on screen meets WCAG 2.x AA
(4.5:1 for text, 3:1 for borders, focus rings and lines), measured from what the window
actually uses."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QBrush, QColor, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QGraphicsLineItem,
    QGraphicsPathItem,
    QGraphicsPolygonItem,
    QGraphicsRectItem,
    QGraphicsTextItem,
)
from pytestqt.qtbot import QtBot

from inspector_app.services.demo.parcels import install_demo
from inspector_app.services.workspace import Workspace
from inspector_app.ui import theme as themes
from inspector_app.ui.main_window import MainWindow
from inspector_app.ui.tasks import TaskRunner

from .live import threaded_window

TODAY = date(2026, 11, 25)
TEXT, NON_TEXT = 4.5, 3.0
FAILURE, UNDERSIZED, NEVER_INSPECTED = "900.01-1-7", "900.01-1-5", "900.01-1-1"
Role, Group = QPalette.ColorRole, QPalette.ColorGroup


# --- WCAG 2.x contrast ------------------------------------------------------------------

def luminance(c: QColor) -> float:
    """Relative luminance of an sRGB colour (WCAG 2.x)."""
    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4
    return 0.2126 * channel(c.red()) + 0.7152 * channel(c.green()) + 0.0722 * channel(c.blue())


def contrast(a: QColor, b: QColor) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def over(top: QColor, below: QColor) -> QColor:
    """`top` (with its alpha) painted over an opaque colour."""
    a = top.alphaF()
    return QColor(*(round(t * a + b * (1 - a)) for t, b in (
        (top.red(), below.red()), (top.green(), below.green()), (top.blue(), below.blue()))))


def test_the_contrast_formula_matches_wcag() -> None:
    assert contrast(QColor("#000000"), QColor("#ffffff")) == pytest.approx(21.0)
    assert contrast(QColor("#777777"), QColor("#ffffff")) == pytest.approx(4.48, abs=0.01)
    assert contrast(QColor("#767676"), QColor("#ffffff")) == pytest.approx(4.54, abs=0.01)
    assert contrast(QColor("#555555"), QColor("#000000")) == pytest.approx(2.8, abs=0.05)
    assert contrast(QColor("#b00020"), QColor("#000000")) == pytest.approx(2.9, abs=0.1)
    assert over(QColor(255, 255, 255, 0), QColor("#123456")).name() == "#123456"


# --- the window in each theme -------------------------------------------------------------

@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> Iterator[MainWindow]:
    ws = Workspace(tmp_path / "data", user="k.olmsted")
    install_demo(ws, today=TODAY)
    ws.decide_suggestion(UNDERSIZED, "septic_tank_capacity/septic_tank#1", accept=True,
                         note="confirmed with the pumper", as_of=TODAY)
    w = threaded_window(ws, tmp_path, TODAY)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    yield w
    if w.menus.view.contrast.isChecked():
        w.menus.view.contrast.trigger()  # the next test starts in the normal theme
    w.close()
    ws.close()


def _open(window: MainWindow, qtbot: QtBot, sbl: str) -> None:
    window.select(sbl)
    qtbot.waitUntil(lambda: window.sbl == sbl and window.evaluation.evaluation is not None
                    and not window.runner.pending, timeout=10_000)


class Pairs:
    def __init__(self) -> None:
        self.failures: list[str] = []
        self.count = 0

    def check(self, what: str, fg: QColor, bg: QColor, minimum: float) -> None:
        self.count += 1
        ratio = contrast(fg, bg)
        if ratio < minimum:
            self.failures.append(f"{what}: {fg.name()} on {bg.name()} is {ratio:.2f}:1, "
                                 f"needs {minimum:g}:1")


def _palette_pairs(pairs: Pairs, p: QPalette, where: str) -> None:
    for group in (Group.Active, Group.Inactive, Group.Disabled):
        g = group.name
        for fg, bg in ((Role.WindowText, Role.Window), (Role.Text, Role.Base),
                       (Role.Text, Role.AlternateBase), (Role.PlaceholderText, Role.Base),
                       (Role.ButtonText, Role.Button), (Role.ButtonText, Role.Window),
                       (Role.HighlightedText, Role.Highlight), (Role.BrightText, Role.Dark),
                       (Role.ToolTipText, Role.ToolTipBase), (Role.Link, Role.Base),
                       (Role.LinkVisited, Role.Base), (Role.Link, Role.Window)):
            pairs.check(f"{where} {g} {fg.name} on {bg.name}", p.color(group, fg),
                        p.color(group, bg), TEXT)
        pairs.check(f"{where} {g} Highlight on Base", p.color(group, Role.Highlight),
                    p.color(group, Role.Base), NON_TEXT)


HEX = re.compile(r"#[0-9a-fA-F]{6}\b")


def _rules(stylesheet: str) -> list[tuple[str, dict[str, str]]]:
    out = []
    for selector, body in re.findall(r"([^{}]+)\{([^}]*)\}", stylesheet):
        props = {}
        for declaration in body.split(";"):
            name, _, value = declaration.partition(":")
            if value.strip():
                props[name.strip()] = value.strip()
        out.append((" ".join(selector.split()), props))
    return out


def _colour(value: str | None) -> QColor | None:
    found = HEX.search(value or "")
    return QColor(found.group()) if found else None


def _stylesheet_pairs(pairs: Pairs, stylesheet: str, p: QPalette) -> int:
    """Text against its rule's background (or the palette's); borders, rings and scroll
    bar handles against the rule's background and the window around them."""
    window, base = p.color(Role.Window), p.color(Role.Base)
    borders = 0
    for selector, props in _rules(stylesheet):
        bg = _colour(props.get("background"))
        fg = _colour(props.get("color"))
        behind = [bg] if bg is not None else [window, base]
        minimum = TEXT
        for b in behind:
            if fg is not None:
                pairs.check(f"stylesheet {selector} text", fg, b, minimum)
        edge = _colour(props.get("border")) or _colour(props.get("border-color"))
        if edge is not None:
            borders += 1
            # an edge in its own fill's colour is a solid shape: it stands against the window
            grounds = [window] if bg is not None and edge.name() == bg.name() else [
                *behind, window]
            for b in {c.name(): c for c in grounds}.values():
                pairs.check(f"stylesheet {selector} border", edge, b, NON_TEXT)
        if "::handle" in selector and bg is not None:
            pairs.check(f"stylesheet {selector}", bg, window, NON_TEXT)
    return borders


def _document_pairs(pairs: Pairs, browser: object, where: str) -> int:
    """Every run of text in the rendered evaluation, with the colour Qt gives it."""
    doc = browser.document()  # type: ignore[attr-defined]
    p = browser.palette()  # type: ignore[attr-defined]
    page = p.color(Role.Base)
    runs = 0
    block = doc.begin()
    while block.isValid():
        block_bg = block.blockFormat().background()
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            text = fragment.text().strip()
            if text:
                f = fragment.charFormat()
                fg = (f.foreground().color() if f.foreground().style() != QBrush().style()
                      else p.color(Role.Text))
                bg = (f.background().color() if f.background().style() != QBrush().style()
                      else block_bg.color() if block_bg.style() != QBrush().style() else page)
                pairs.check(f"{where}: {text[:40]!r}", fg, bg, TEXT)
                runs += 1
            it += 1
        block = block.next()
    return runs


def _map_pairs(pairs: Pairs, scene: object, t: themes.Theme) -> int:
    items = scene.items()  # type: ignore[attr-defined]
    paper = [i.brush().color() for i in items if isinstance(i, QGraphicsRectItem)]
    assert paper, "the site map has no paper to draw on"
    grounds = {"paper": paper[0]}
    fills = [i.brush().color() for i in items if isinstance(i, QGraphicsPolygonItem)
             and i.brush().style() != QBrush().style()]
    for n, fill in enumerate(fills):
        for name, ground in list(grounds.items()):
            grounds[f"fill {n} over {name}"] = over(fill, ground) if fill.alpha() < 255 else fill
    # the theme's own map colours, for what this parcel happens not to draw
    water = QColor(t.map_water)
    grounds.update({"water": water, "band over paper": over(t.map_band, paper[0]),
                    "band over water": over(t.map_band, water)})
    texts = [(i.toPlainText(), i.defaultTextColor()) for i in items
             if isinstance(i, QGraphicsTextItem)]
    texts += [("feature label", QColor(t.map_feature)), ("distance", QColor(t.map_distance))]
    for label, colour in texts:
        for name, ground in grounds.items():
            pairs.check(f"site map text {label!r} on {name}", colour, ground, TEXT)
    lines = [i.pen().color() for i in items if isinstance(i, QGraphicsPathItem
                                                          | QGraphicsLineItem)]
    for colour in [*lines, QColor(t.map_shore), QColor(t.map_area_line), QColor(t.map_frame)]:
        for name in ("paper", "water"):
            pairs.check(f"site map line {colour.name()} on {name}", colour, grounds[name],
                        NON_TEXT)
    return len(texts)


@pytest.mark.parametrize("high_contrast", [False, True], ids=["normal", "high-contrast"])
def test_every_colour_pair_of_both_themes_meets_wcag_aa(window: MainWindow, qtbot: QtBot,
                                                        high_contrast: bool) -> None:
    if high_contrast:
        window.menus.view.contrast.trigger()
    assert window.menus.view.contrast.isChecked() is high_contrast
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    t = themes.HIGH_CONTRAST if high_contrast else themes.NORMAL
    pairs = Pairs()
    _palette_pairs(pairs, app.palette(), "palette")
    _palette_pairs(pairs, window.search.palette(), "search box")
    # Placeholder text must be there to read, not an alpha-blended ghost of the text.
    assert window.search.palette().color(Role.PlaceholderText).alpha() == 255
    borders = _stylesheet_pairs(pairs, app.styleSheet(), app.palette())
    assert borders >= 4, "fields, focus rings, check boxes and banners need borders"
    rules = dict(_rules(app.styleSheet()))
    for field in ("QLineEdit", "QComboBox", "QAbstractSpinBox", "QPlainTextEdit"):
        assert any(field in s and ":focus" in s and "border" in props
                   for s, props in rules.items()), f"{field} has no focus ring"
        assert any(field in s and ":" not in s and "border" in props
                   for s, props in rules.items()), f"{field} has no border"
    # The banners take their colours from the theme, not from colours of their own.
    for banner, tone in ((window.demo_banner, "notice"), (window.layer_warning, "warning"),
                         (window.problem, "problem")):
        assert banner.property("tone") == tone
        assert not HEX.search(banner.styleSheet())
    runs = 0
    for sbl in (FAILURE, UNDERSIZED, NEVER_INSPECTED):
        _open(window, qtbot, sbl)
        runs += _document_pairs(pairs, window.evaluation, f"evaluation of {sbl}")
        if window.site.scene.items():
            _map_pairs(pairs, window.site.scene, t)
    assert runs > 30 and pairs.count > 200
    assert not pairs.failures, "\n".join(pairs.failures)


def test_the_evaluation_and_map_follow_the_theme_when_it_changes(window: MainWindow,
                                                                 qtbot: QtBot) -> None:
    _open(window, qtbot, FAILURE)
    assert themes.NORMAL.failure in window.evaluation.toHtml()
    window.menus.view.contrast.trigger()
    assert themes.active() is themes.HIGH_CONTRAST
    html = window.evaluation.toHtml()
    assert themes.HIGH_CONTRAST.failure in html and themes.NORMAL.failure not in html
    assert themes.HIGH_CONTRAST.muted in html
    paper = [i.brush().color().name() for i in window.site.scene.items()
             if isinstance(i, QGraphicsRectItem)]
    assert paper == [themes.HIGH_CONTRAST.map_paper]
    window.menus.view.contrast.trigger()
    assert themes.NORMAL.failure in window.evaluation.toHtml()


def test_high_contrast_is_restored_at_start_and_toggling_keeps_the_font(
        qtbot: QtBot, tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "data", user="k.olmsted")
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    size = app.font().pointSizeF()
    settings.setValue("high_contrast", True)
    w = MainWindow(ws, runner=TaskRunner(), settings=settings)
    qtbot.addWidget(w)
    try:
        assert w.menus.view.contrast.isChecked()
        assert app.palette().color(Role.Window).name() == themes.HIGH_CONTRAST.window
        assert app.font().pointSizeF() == pytest.approx(size * 1.15)
        w.menus.view.toggle_contrast()  # applying the same theme again changes nothing
        assert app.font().pointSizeF() == pytest.approx(size * 1.15)
        w.menus.view.contrast.trigger()
        assert app.font().pointSizeF() == pytest.approx(size)
        assert app.palette().color(Role.Window).name() == themes.NORMAL.window
        assert settings.value("high_contrast", type=bool) is False
    finally:
        if w.menus.view.contrast.isChecked():
            w.menus.view.contrast.trigger()
        w.close()
        ws.close()


def test_screenshots_of_both_themes(window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    """The whole window with a failure open, in each theme: look at them after changes.
    INSPECTOR_APP_SCREENSHOTS=DIR keeps them."""
    shots = Path(os.environ.get("INSPECTOR_APP_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    _open(window, qtbot, FAILURE)
    for name in ("theme-normal", "theme-high-contrast"):
        if name.endswith("contrast"):
            window.menus.view.contrast.trigger()
        window.search.setFocus()
        qtbot.wait(100)
        image = window.grab()
        assert image.width() >= 1280 and image.save(str(shots / f"{name}-1280x800.png"))
