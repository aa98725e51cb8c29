"""Under the form's tests: a dye or hydraulic-load test's timer, its volume preset and what
was seen of it, at the test or at a later visit.

Start saves the test's start at once (the clock at the site, to the second), so a test
running survives switching parcels, closing the app or a laptop that sleeps: the time
running is worked out from the saved start each time it is shown, counted on screen by a
QTimer that never blocks the window. Stop saves the end and the minutes it ran.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from itertools import pairwise

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from ..domain.case import FieldTest, TestObservation
from ..domain.field_tests import KIND_WORDS, VolumePreset
from ..domain.vocabulary import TestKind, TestResult

TICK_MS = 1000  # how often the time running is counted on screen


def site_time(moment: datetime) -> str:
    """A moment as the clock at the site shows it, to the second: "2026-11-18T09:30:05"."""
    return moment.astimezone().replace(tzinfo=None).isoformat(timespec="seconds")


def running_text(seconds: float) -> str:
    """The time a test has run: "12:05", or "1:02:05" past the hour."""
    whole = max(int(seconds), 0)
    hours, rest = divmod(whole, 3600)
    return (f"{hours}:" if hours else "") + f"{rest // 60:0{2 if hours else 1}d}:{rest % 60:02d}"


def _place(text: str) -> dict[str, object] | None:
    """"42.8071, -77.2803" (latitude, longitude) as a GeoJSON point; blank: none."""
    if not text.strip():
        return None
    try:
        lat, lon = (float(x) for x in text.replace(";", ",").split(","))
    except ValueError:
        raise ValueError(f"Place {text.strip()!r} must read: latitude, longitude "
                         "(42.8071, -77.2803)") from None
    return {"type": "Point", "coordinates": [lon, lat]}


class FieldTestPanel(QWidget):
    """The timer, preset and observations of one of the inspection's tests."""

    # the inspection's tests as edited here, to be saved at once
    changed = Signal(object)
    problem = Signal(str)

    def __init__(self, clock: Callable[[], datetime] | None = None) -> None:
        super().__init__()
        self.clock: Callable[[], datetime] = clock or (lambda: datetime.now(UTC))
        self.tests: tuple[FieldTest, ...] = ()
        self.inspected = False
        self.presets: Mapping[TestKind, VolumePreset] = {}
        self.timer = QTimer(self)
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self.tick)
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        self.which = QComboBox()
        self.which.setToolTip("The test the timer, the preset and an observation are for")
        self.which.currentIndexChanged.connect(self._show)
        self.start_stop = QPushButton("Start the test")
        self.start_stop.clicked.connect(self._start_or_stop)
        self.running = QLabel()
        self.preset = QLabel()
        self.preset.setWordWrap(True)
        self.use_preset = QPushButton("Use the preset volume")
        self.use_preset.clicked.connect(self._use_preset)
        self.dye_seen = QCheckBox("Dye seen")
        self.note = QLineEdit()
        self.note.setPlaceholderText("what was seen, where")
        self.place = QLineEdit()
        self.place.setPlaceholderText("latitude, longitude (optional)")
        self.observe = QPushButton("Add an observation now")
        self.observe.clicked.connect(self._observe)
        self.seen = QLabel()
        self.seen.setWordWrap(True)
        # two columns, narrow enough for the form's pane on a small screen
        self.which.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.which.setMinimumContentsLength(12)
        for n, (left, right) in enumerate(((self.which, self.start_stop),
                                           (self.running, self.use_preset),
                                           (self.preset, None),
                                           (self.dye_seen, self.note),
                                           (self.observe, self.place),
                                           (self.seen, None))):
            if right is None:
                grid.addWidget(left, n, 0, 1, 2)
            else:
                grid.addWidget(left, n, 0)
                grid.addWidget(right, n, 1)
        self.show_tests((), inspected=False)

    def after_in_tab_order(self, *before: QWidget) -> None:
        """Put `before`, in their order, ahead of this panel in the keys' walk: a visit
        without a timed test reaches the next fields with no stop in the panel."""
        for first, second in pairwise(before):
            QWidget.setTabOrder(first, second)

    # --- what is shown ---------------------------------------------------------------

    def show_tests(self, tests: Sequence[FieldTest], *, inspected: bool) -> None:
        """The inspection's tests as saved; a test running is chosen and counted."""
        self.tests, self.inspected = tuple(tests), inspected
        kept = self.which.currentIndex()
        self.which.blockSignals(True)
        self.which.clear()
        for n, t in enumerate(self.tests):
            self.which.addItem(f"Test {n + 1}: {KIND_WORDS[t.kind]}", n)
        for kind in TestKind:
            self.which.addItem(f"A new {KIND_WORDS[kind]}", kind.value)
        running = next((n for n, t in enumerate(self.tests) if self._running(t)), None)
        self.which.setCurrentIndex(running if running is not None else
                                   kept if 0 <= kept < self.which.count() else 0)
        self.which.blockSignals(False)
        self._show()

    def set_presets(self, presets: Sequence[VolumePreset]) -> None:
        """The volume preset of each kind of test at this dwelling (from its evaluation)."""
        self.presets = {p.kind: p for p in presets}
        self._show()

    def chosen(self) -> tuple[int | None, TestKind]:
        """(the test chosen, or None for a new one; its kind)."""
        data = self.which.currentData()
        if isinstance(data, int):
            return data, self.tests[data].kind
        return None, TestKind(data) if data else TestKind.DYE

    @staticmethod
    def _running(t: FieldTest) -> bool:
        return t.started_at is not None and t.ended_at is None

    def _show(self) -> None:
        n, kind = self.chosen()
        test = self.tests[n] if n is not None else None
        for w in (self.start_stop, self.use_preset, self.observe):
            w.setEnabled(self.inspected)
        running = test is not None and self._running(test)
        self.start_stop.setText("Stop the test" if running else "Start the test")
        self.start_stop.setEnabled(self.inspected and (test is None or test.ended_at is None))
        preset = self.presets.get(kind)
        self.preset.setText(f"Preset: {preset.arithmetic}"
                            + (" (unconfirmed)" if preset.unconfirmed else "")
                            if preset is not None else "No preset: record the bedrooms.")
        self.use_preset.setEnabled(self.inspected and preset is not None)
        self.observe.setEnabled(self.inspected and test is not None)
        self.seen.setText("\n".join(
            f"{o.at.replace('T', ' ')}: {'dye seen' if o.dye_seen else 'no dye seen'}"
            + (f"; {o.note}" if o.note else "") for o in (test.observations if test else ())))
        if running:
            self.timer.start()
        else:
            self.timer.stop()
        self.tick()

    def tick(self) -> None:
        """Count the time the chosen test has run, from its saved start."""
        n, _ = self.chosen()
        test = self.tests[n] if n is not None else None
        if test is None or test.started_at is None:
            self.running.setText("")
            return
        start = datetime.fromisoformat(test.started_at)
        end = (datetime.fromisoformat(test.ended_at) if test.ended_at is not None
               else datetime.fromisoformat(site_time(self.clock())))
        self.running.setText(("Ran " if test.ended_at else "Running ")
                             + running_text((end - start).total_seconds()))

    # --- edits -----------------------------------------------------------------------

    def _edited(self, tests: tuple[FieldTest, ...]) -> None:
        self.tests = tests
        self.changed.emit(tests)

    def _with(self, n: int | None, kind: TestKind, **changes: object) -> None:
        tests = list(self.tests)
        if n is None:
            tests.append(FieldTest(kind=kind, result=TestResult.INCONCLUSIVE))
            n = len(tests) - 1
        tests[n] = replace(tests[n], **changes)  # type: ignore[arg-type]
        self._edited(tuple(tests))
        self.show_tests(self.tests, inspected=self.inspected)
        self.which.setCurrentIndex(n)

    def _start_or_stop(self) -> None:
        n, kind = self.chosen()
        now = site_time(self.clock())
        test = self.tests[n] if n is not None else None
        if test is None or test.started_at is None:
            self._with(n, kind, started_at=now)
            return
        ran = datetime.fromisoformat(now) - datetime.fromisoformat(test.started_at)
        if ran.total_seconds() <= 0:
            self.problem.emit("Not stopped: the test started less than a second ago.")
            return
        self._with(n, kind, ended_at=now,
                   duration_min=round(ran.total_seconds() / 60, 1))

    def _use_preset(self) -> None:
        n, kind = self.chosen()
        preset = self.presets.get(kind)
        if preset is not None:
            self._with(n, kind, volume_gal=preset.volume_gal,
                       duration_min=preset.duration_min)

    def _observe(self) -> None:
        n, kind = self.chosen()
        if n is None:
            return
        try:
            place = _place(self.place.text())
        except ValueError as exc:
            self.problem.emit(f"Not added: {exc}")
            return
        seen = TestObservation(at=site_time(self.clock()), dye_seen=self.dye_seen.isChecked(),
                               place=place, note=self.note.text().strip() or None)
        self.note.clear()
        self.place.clear()
        self.dye_seen.setChecked(False)
        self._with(n, kind, observations=(*self.tests[n].observations, seen))
