"""Edits of the open parcel's site map: an area or a point drawn, a corner dragged,
coordinates typed, a GPS log or a GPS device; and the imagery chosen under the sketch.

Each edit is written on the worker and the parcel read back in the same job, so the edit
is one step on the undo stack like a form edit: undo writes the case as it was before it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QInputDialog, QLineEdit

from .case_edits import SaveCase

if TYPE_CHECKING:
    from ..services.workspace import Workspace
    from .workbench_parts import WorkbenchParts


def _site_service() -> Any:
    from ..services.parcel import site

    return site


def site_imagery(ws: Workspace, sbl: str) -> Any:
    """The imagery for a parcel's site map (on the worker): the active basemap, every
    basemap for the chooser, and how the render thread opens the file."""
    from .basemap_item import SiteImagery

    try:
        from ..services.reference.lot_lines import active_lot_layer_info

        lots = active_lot_layer_info(ws)
    except ImportError:
        lots = None
    lots_label = lots["label"] if lots else None
    try:
        from ..services.reference import basemaps
    except ImportError:  # an installation without imagery support
        return SiteImagery(sbl, lots=lots_label)
    ref = basemaps.active_basemap(ws)
    listed = tuple(basemaps.list_basemaps(ws))
    if ref is None:
        return SiteImagery(sbl, None, listed, None, lots_label)

    def opener() -> tuple[Callable[..., Any], Callable[[], None]]:
        reader = basemaps.open_reader(ref)
        return (lambda bbox, w, h: reader.render(bbox, w, h)), reader.close

    return SiteImagery(sbl, ref, listed, opener, lots_label)


class SiteEdits:
    """What the site map asks for, written to the open parcel."""

    def __init__(self, workbench: WorkbenchParts) -> None:
        self.wb = workbench
        self.ctx = workbench.ctx
        self.settings = workbench.settings
        site = workbench.site
        self.site = site
        site.area_drawn.connect(self.area_drawn)
        site.area_edited.connect(self.area_edited)
        site.type_coordinates.connect(self.type_coordinates)
        site.gps_requested.connect(self.gps_log)
        site.gps_device_requested.connect(self.gps_device)
        site.well_conditions_requested.connect(self.well_conditions)
        site.basemap_chosen.connect(self.choose_basemap)

    def area_drawn(self, points: list[tuple[float, float]]) -> None:
        target = self.site.target.currentData()
        self._save(lambda ws, sbl: _site_service().set_from_state_plane(ws, sbl, target,
                                                                        points))

    def area_edited(self, corners: list[tuple[float, float]]) -> None:
        self._save(lambda ws, sbl: _site_service().set_from_state_plane(
            ws, sbl, "absorption_area", corners))

    def type_coordinates(self) -> None:
        if self.wb.sbl is None:
            return
        from .coordinates import CoordinatesDialog

        target, label = self.site.target.currentData(), self.site.target.currentText()
        case = self.wb.case
        recorded = [] if case is None else _site_service().recorded_points(case, target)
        answer = CoordinatesDialog.ask(self.wb.window(), label, target,
                                       str(self.settings.value("coordinate_system", "lonlat")),
                                       recorded)
        if answer is None:
            return
        system, text = answer
        self.settings.setValue("coordinate_system", system)
        self.ctx.say(f"Saving the {label.lower()}...")
        self._save(lambda ws, sbl: _site_service().set_from_typed(ws, sbl, target, text,
                                                                  system))

    def gps_log(self) -> None:
        if self.wb.sbl is None:
            return
        target = self.site.target.currentData()
        files = self.ctx.files.open_files(self.wb.window(), "nmea logs",
                                          "NMEA logs: several of a point are averaged, "
                                          "one per corner of an area")
        if files:
            self._save(lambda ws, sbl: _site_service().set_from_gps_logs(
                ws, sbl, target, files))

    def gps_device(self) -> None:
        if self.wb.sbl is None:
            return
        target, label = self.site.target.currentData(), self.site.target.currentText()
        port, ok = QInputDialog.getText(self.wb.window(), "GPS device", "Serial port of the "
                                        f"GPS (stand at the {label.lower()}):",
                                        QLineEdit.EchoMode.Normal,
                                        str(self.settings.value("gps_port", "/dev/ttyUSB0")))
        if not ok or not port.strip():
            return
        self.settings.setValue("gps_port", port.strip())
        self.ctx.say(f"Averaging GPS fixes from {port} for 10 seconds...")
        self._save(lambda ws, sbl: _site_service().set_from_gps_device(ws, sbl, target,
                                                                       port.strip()))

    def well_conditions(self) -> None:
        """Ask for a well's conditions (75-A Table 2, notes (a) and (g)) and record them."""
        case = self.wb.case
        if self.wb.sbl is None or case is None:
            return
        from ..domain.vocabulary import SiteFeatureKind
        from .well_conditions import WellConditionsDialog

        wells = [f for f in (case.site.features if case.site else ())
                 if f.kind is SiteFeatureKind.WELL]
        if not wells:
            self.ctx.say("Locate the well on the site map first (Feature: Well).")
            return
        answer = WellConditionsDialog.ask(self.wb.window(), wells)
        if answer is None:
            return
        n, shallow, drainage = answer
        self._save(lambda ws, sbl: _site_service().set_well_conditions(
            ws, sbl, n, shallow_aquifer=shallow, drainage_path=drainage))

    def _save(self, write: Callable[[Workspace, str], dict[str, Any]]) -> None:
        """Write a change of the open parcel's site on the worker and read the parcel back
        in the same job; the change goes on the undo stack, from the case the form was
        based on when it was asked for."""
        wb, ws, sbl = self.wb, self.ctx.ws, self.wb.sbl
        if sbl is None or ws is None:
            return
        before, parcel_id = wb.case, wb.parcel_id
        wb.edits.started()

        def work() -> tuple[dict[str, Any], tuple[str, Any, int]]:
            return write(ws, sbl), ws.open_for_edit(sbl)

        def done(result: tuple[dict[str, Any], tuple[str, Any, int]]) -> None:
            saved, (stored_id, case, _version) = result
            self._say_saved(sbl, saved)
            if (before is not None and parcel_id == stored_id == wb.parcel_id
                    and before != case):
                label = _site_service().target_label(saved["target"])
                wb.undo_stack.push(SaveCase(wb.edits, stored_id, before, case,
                                            f"map: {label.lower()}"))
            wb.edits.landed(sbl, stored_id, case)

        def failed(exc: BaseException) -> None:
            self.ctx.error(exc)
            wb.edits.landed(sbl, parcel_id or "", None)

        self.ctx.op(work).success(done).failure(failed).run()

    def _say_saved(self, sbl: str, result: dict[str, Any]) -> None:
        """Say what was saved and what the lake distance now goes by."""
        text = f"{_site_service().target_label(result['target'])} saved for {sbl}."
        lake = result.get("lake") or {}
        if lake.get("distance_ft") is not None:
            by = (f"the {lake['method']}" if lake["source"] == "field" and lake.get("method")
                  else "the measured distance" if lake["source"] == "field" else "the map")
            accuracy = (f", ±{lake['accuracy_ft']:,.0f} ft" if lake["source"] == "map"
                        and lake.get("accuracy_ft") is not None else "")
            zone = lake["zone"].replace("_", " ").replace("200ft", "200 ft")
            text += (f" The lake distance goes by {by} ({lake['distance_ft']:,.1f} ft"
                     f"{accuracy}): {zone}.")
        averaged = result.get("gps_averaged")
        if averaged:
            text += (f" {averaged['logs']} GPS logs averaged into one point (±"
                     f"{averaged['accuracy_ft']:,.0f} ft).")
        for note in result.get("notes", ()):
            text += f" {note}."
        self.ctx.say(text)

    def choose_basemap(self, basemap_id: str) -> None:
        """The site map's chooser: make a basemap the active one (a record, so on the
        worker), or none; then draw the open parcel again."""
        from ..services.reference import basemaps

        ws = self.ctx.ws
        if ws is None:
            return

        def work() -> None:
            if basemap_id:
                basemaps.activate_basemap(ws, basemap_id)
            else:
                basemaps.deactivate_basemap(ws)

        def failed(exc: BaseException) -> None:
            self.ctx.error(exc)
            self._draw_again()  # the chooser shows the basemap still active

        self.ctx.op(work).success(lambda _: self._draw_again()).failure(failed).run()

    def _draw_again(self) -> None:
        if self.wb.sbl is not None:
            self.wb.refresh_parcel(self.wb.sbl)
