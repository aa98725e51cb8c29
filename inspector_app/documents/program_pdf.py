"""The program report as PDF (reportlab): the tallies, three charts, the lake map and the
open matters, in the letters' embedded font only.

Charts are reportlab's own graphics (no other charting library to ship). Every series
is told apart by lightness and by marker shape as well as by colour, so the pages read
when printed in grey. The charts are built by `charts()` from the report's figures alone,
so a test can compare what each chart draws with what `--json` prints.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.graphics.charts.barcharts import VerticalBarChart
from reportlab.graphics.charts.legends import Legend
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, Group, Line, Polygon, Rect, String
from reportlab.graphics.widgets.markers import makeMarker
from reportlab.lib import colors
from reportlab.lib.pagesizes import LETTER
from reportlab.lib.units import inch
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.platypus import (
    KeepTogether,
    PageBreak,
    SimpleDocTemplate,
    Spacer,
    TableStyle,
)
from reportlab.platypus import Paragraph as RLParagraph
from reportlab.platypus import Table as RLTable

from ..domain.labels import kind_words, words
from .render import FONT, _styles, numbered_canvas, register_fonts

PAGE_W, PAGE_H = LETTER
MARGIN = 0.75 * inch
BOLD = "Vera-Bold"
WIDTH = PAGE_W - 2 * MARGIN
PAD = 6  # a table cell's padding on each side (reportlab's default)

# Outcomes, bottom of a stacked bar first: fill, and marker on the map. In grey they are
# white, about 80 %, 62 %, 20 % and 90 % (dashed outline), so grey print keeps them apart.
OUTCOME_STYLE = {
    "acceptable": ("#ffffff", "Circle", "Acceptable"),
    "substandard": ("#f6b94a", "Square", "Substandard"),
    "incomplete": ("#8f8f8f", "Diamond", "Incomplete (component not located)"),
    "failure": ("#4a0b14", "Triangle", "Failure"),
    "not_judged": ("#e3e3e3", "Cross", "Not judged (no law on file)"),
}
STACK = tuple(OUTCOME_STYLE)


@dataclass(frozen=True)
class MapInputs:
    """The lake map: the active shoreline layer's rings and the points, in feet
    (EPSG:2261), and the layer's name as the map credits it."""

    rings: Sequence[Sequence[tuple[float, float]]]
    points: Sequence[tuple[float, float, str]]  # x, y, outcome
    layer: str


@dataclass(frozen=True)
class ReportInputs:
    figures: dict[str, Any]
    office: str
    department: str
    map: MapInputs | None
    notes: Sequence[str]  # what each figure counts, with its section


def _label_style(chart: Any) -> None:
    for axis in (chart.categoryAxis if hasattr(chart, "categoryAxis") else chart.xValueAxis,
                 chart.valueAxis if hasattr(chart, "valueAxis") else chart.yValueAxis):
        axis.labels.fontName = FONT
        axis.labels.fontSize = 7


def _legend(x: float, y: float, pairs: list[tuple[Any, str]], *, columns: int = 1) -> Legend:
    legend = Legend()
    legend.x, legend.y = x, y
    legend.fontName, legend.fontSize = FONT, 7
    legend.alignment = "right"
    legend.columnMaximum = max(1, -(-len(pairs) // columns))
    legend.colorNamePairs = pairs
    legend.strokeColor = colors.black
    legend.strokeWidth = 0.5
    legend.dx = legend.dy = 8
    legend.dxTextSpace = 6
    legend.deltax = 165
    return legend


def _axis_titles(d: Drawing, x_title: str, y_title: str, *, x: float, y: float, w: float,
                 h: float) -> None:
    d.add(String(x + w / 2, y - 30, x_title, fontName=FONT, fontSize=7.5, textAnchor="middle"))
    title = String(0, 0, y_title, fontName=FONT, fontSize=7.5, textAnchor="middle")
    g = Group(title)
    g.translate(x - 30, y + h / 2)
    g.rotate(90)
    d.add(g)


def _count_axis(axis: Any, top: int) -> None:
    """A count axis from 0 to the largest count, in whole steps, about five of them."""
    axis.valueMin = 0
    axis.valueMax = max(1, top)
    axis.valueStep = max(1, -(-top // 5))


def _title(d: Drawing, text: str) -> None:
    d.add(String(0, d.height - 10, text, fontName=BOLD, fontSize=9))


def per_month_chart(figures: dict[str, Any]) -> Drawing:
    """Inspections per month, stacked by outcome."""
    rows = figures["charts"]["inspections_per_month"]
    d = Drawing(WIDTH, 210)
    _title(d, "Inspections per month, by outcome")
    chart = VerticalBarChart()
    chart.x, chart.y, chart.width, chart.height = 45, 55, WIDTH - 60, 105
    chart.data = [[r[k] for r in rows] for k in STACK]
    chart.categoryAxis.style = "stacked"
    labels = [r["month"] if (i % max(1, len(rows) // 12) == 0) else "" for i, r in
              enumerate(rows)]
    chart.categoryAxis.categoryNames = labels
    chart.categoryAxis.labels.angle = 45
    chart.categoryAxis.labels.boxAnchor = "ne"
    _count_axis(chart.valueAxis, max([sum(r[k] for k in STACK) for r in rows] or [0]))
    chart.barSpacing = 0
    chart.groupSpacing = 1
    for i, k in enumerate(STACK):
        chart.bars[i].fillColor = colors.HexColor(OUTCOME_STYLE[k][0])
        chart.bars[i].strokeColor = colors.black
        chart.bars[i].strokeWidth = 0.4
        if k == "not_judged":
            chart.bars[i].strokeDashArray = (2, 1.5)
    _label_style(chart)
    d.add(chart)
    _axis_titles(d, "Month of inspection", "Inspections (count)", x=chart.x, y=chart.y - 8,
                 w=chart.width, h=chart.height)
    d.add(_legend(50, d.height - 20, [(colors.HexColor(OUTCOME_STYLE[k][0]), OUTCOME_STYLE[k][2])
                                      for k in STACK], columns=3))
    return d


def failure_rate_chart(figures: dict[str, Any]) -> Drawing:
    """The share of inspections that found a failure, within and beyond 200 ft."""
    rate = figures["charts"]["failure_rate"]
    d = Drawing(WIDTH, 180)
    _title(d, "Failure rate: inspections finding a failure, within and beyond 200 ft of the "
              "lake line")
    chart = VerticalBarChart()
    chart.x, chart.y, chart.width, chart.height = 60, 40, 220, 105
    zones = ("within_200ft", "beyond_200ft")
    chart.data = [[rate[z]["percent"] for z in zones]]  # None: no inspection, no bar
    chart.categoryAxis.categoryNames = [
        f"{words(z).replace('200ft', '200 ft')} ({rate[z]['failures']} of "
        f"{rate[z]['inspections']})" if rate[z]["inspections"] else
        f"{words(z).replace('200ft', '200 ft')} (no inspections)" for z in zones]
    chart.valueAxis.valueMin = 0
    chart.valueAxis.valueMax = 100
    chart.valueAxis.valueStep = 20
    chart.bars[0].fillColor = colors.HexColor(OUTCOME_STYLE["failure"][0])
    chart.bars[0].strokeColor = colors.black
    chart.barLabelFormat = "%.1f %%"
    chart.barLabels.fontName = FONT
    chart.barLabels.fontSize = 7
    chart.barLabels.nudge = 7
    _label_style(chart)
    d.add(chart)
    _axis_titles(d, "Lake zone of the system (inspections in the period)", "Failure rate (%)",
                 x=chart.x, y=chart.y + 4, w=chart.width, h=chart.height)
    return d


def overdue_chart(figures: dict[str, Any]) -> Drawing:
    """Systems within 200 ft whose five-year inspection is overdue, at each month's end."""
    rows = figures["charts"]["overdue_five_year"]
    d = Drawing(WIDTH, 190)
    _title(d, "Five-year inspections overdue at each month's end (systems within 200 ft)")
    plot = LinePlot()
    plot.x, plot.y, plot.width, plot.height = 45, 50, WIDTH - 70, 105
    plot.data = [[(i, r["overdue"]) for i, r in enumerate(rows)]]
    plot.lines[0].strokeColor = colors.black
    plot.lines[0].strokeWidth = 1.2
    plot.lines[0].symbol = makeMarker("FilledCircle", size=3)
    plot.xValueAxis.valueMin = -0.5 if len(rows) == 1 else 0
    plot.xValueAxis.valueMax = 0.5 if len(rows) == 1 else len(rows) - 1
    step = max(1, len(rows) // 12)
    plot.xValueAxis.valueSteps = list(range(0, len(rows), step))
    plot.xValueAxis.labelTextFormat = lambda v: rows[int(v)]["month"] if 0 <= int(v) < len(
        rows) else ""
    plot.xValueAxis.labels.angle = 45
    plot.xValueAxis.labels.boxAnchor = "ne"
    _count_axis(plot.yValueAxis, max([r["overdue"] for r in rows] or [0]))
    _label_style(plot)
    d.add(plot)
    _axis_titles(d, "Month's end", "Systems overdue (count)", x=plot.x, y=plot.y - 8,
                 w=plot.width, h=plot.height)
    if rows:
        last = rows[-1]
        d.add(String(plot.x + plot.width, d.height - 24,
                     f"At {last['month_end']}: {last['overdue']} overdue", fontName=FONT,
                     fontSize=7.5, textAnchor="end"))
    return d


def charts(figures: dict[str, Any]) -> dict[str, Drawing]:
    """The report's three charts, by the name of their figures in the JSON."""
    register_fonts()
    return {"inspections_per_month": per_month_chart(figures),
            "failure_rate": failure_rate_chart(figures),
            "overdue_five_year": overdue_chart(figures)}


def lake_map(inputs: MapInputs, *, height: float = 560) -> Drawing:
    """The lake line and each inspected system, marked by outcome; no names."""
    xs = [x for ring in inputs.rings for x, _ in ring] + [p[0] for p in inputs.points]
    ys = [y for ring in inputs.rings for _, y in ring] + [p[1] for p in inputs.points]
    d = Drawing(WIDTH, height)
    if not xs:
        return d
    pad = 1500.0
    x0, x1, y0, y1 = min(xs) - pad, max(xs) + pad, min(ys) - pad, max(ys) + pad
    box_w, box_h = WIDTH - 190, height - 30
    scale = min(box_w / (x1 - x0), box_h / (y1 - y0))
    ox, oy = 10, 10

    def at(x: float, y: float) -> tuple[float, float]:
        return ox + (x - x0) * scale, oy + (y - y0) * scale

    d.add(Rect(ox, oy, (x1 - x0) * scale, (y1 - y0) * scale, fillColor=None,
               strokeColor=colors.black, strokeWidth=0.5))
    for ring in inputs.rings:
        pts = [c for x, y in ring for c in at(x, y)]
        d.add(Polygon(pts, fillColor=colors.HexColor("#dbe9f6"), strokeColor=colors.HexColor(
            "#1f4e79"), strokeWidth=0.6))
    # the gravest drawn last, on top: a failure is never hidden under acceptable systems
    gravity = {"acceptable": 0, "not_judged": 1, "substandard": 2, "incomplete": 3, "failure": 4}
    for x, y, outcome in sorted(inputs.points, key=lambda p: gravity[p[2]]):
        fill, shape, _ = OUTCOME_STYLE[outcome]
        px, py = at(x, y)
        marker = makeMarker(shape, x=px, y=py, size=6, fillColor=colors.HexColor(fill),
                            strokeColor=colors.black, strokeWidth=0.5)
        d.add(marker)
    # legend, scale bar and north arrow, right of the map
    lx = ox + (x1 - x0) * scale + 18
    ly = height - 40
    d.add(String(lx, ly + 14, "Latest inspection in the period", fontName=BOLD, fontSize=7.5))
    for k in STACK:
        fill, shape, label = OUTCOME_STYLE[k]
        d.add(makeMarker(shape, x=lx + 4, y=ly + 2, size=6, fillColor=colors.HexColor(fill),
                         strokeColor=colors.black, strokeWidth=0.5))
        n = sum(1 for p in inputs.points if p[2] == k)
        d.add(String(lx + 14, ly, f"{label}: {n}", fontName=FONT, fontSize=7))
        ly -= 13
    d.add(Polygon([lx + 4, ly - 6, lx + 10, ly - 6, lx + 7, ly + 6], fillColor=colors.black,
                  strokeColor=colors.black))
    d.add(String(lx + 14, ly - 4, "North (up)", fontName=FONT, fontSize=7))
    ly -= 28
    bar_ft = 5280.0 * (2 if (x1 - x0) > 8 * 5280 else 1)
    d.add(Line(lx, ly, lx + bar_ft * scale, ly, strokeColor=colors.black, strokeWidth=1.5))
    for tick in (lx, lx + bar_ft * scale):
        d.add(Line(tick, ly - 3, tick, ly + 3, strokeColor=colors.black))
    d.add(String(lx, ly - 11, f"{bar_ft / 5280:g} mi ({bar_ft:,.0f} ft)", fontName=FONT,
                 fontSize=7))
    ly -= 30
    text = (f"Lake line: {inputs.layer}. NY State Plane Central, US survey feet "
            "(EPSG:2261). Each marker at the system's absorption area (or holding tank), "
            "else at the parcel's point. No names shown.")
    for line in simpleSplit(text, FONT, 6.5, WIDTH - lx - 4):
        d.add(String(lx, ly, line, fontName=FONT, fontSize=6.5))
        ly -= 9
    return d


def _page_numbers(title: str) -> type[rl_canvas.Canvas]:
    def decorate(canvas: rl_canvas.Canvas, total: int) -> None:
        canvas.setFont(FONT, 7.5)
        canvas.setFillColor(colors.HexColor("#444444"))
        canvas.drawString(MARGIN, 0.45 * inch, title)
        canvas.drawRightString(PAGE_W - MARGIN, 0.45 * inch,
                               f"Page {canvas.getPageNumber()} of {total}")
    return numbered_canvas(decorate)


# Rows judged under a law: "-" in the column of a municipality with no law on file.
_JUDGED = ("etu", "holding_tanks", "five_year", "records_received")


_ZONE_ROWS = (("within_200ft", "Within 200 ft of the lake line"),
              ("beyond_200ft", "Beyond 200 ft"),
              ("undetermined", "Lake zone undetermined (the records cannot settle it)"),
              ("not_judged", "Not judged (no law on file)"))


def _tally_rows(f: dict[str, Any]) -> list[tuple[str, list[Any], bool]]:
    """(label, path into a tally, is a heading) for each row of the tally table."""
    rows: list[tuple[str, list[Any], bool]] = [("Inspections in the period", ["inspections"],
                                                True)]
    rows.append(("By reason (inspections)", [], True))
    for reason in f["totals"]["by_reason"]:
        rows.append((kind_words(reason), ["by_reason", reason], False))
    rows.append(("By outcome (inspections)", [], True))
    for k in ("acceptable", "substandard", "failure", "incomplete", "not_judged"):
        rows.append((OUTCOME_STYLE[k][2], ["by_outcome", k], False))
    rows.append(("Systems inspected (parcels)", ["systems_inspected", "parcels"], True))
    for k, label in _ZONE_ROWS:
        rows.append((label, ["systems_inspected", k], False))
    rows.append(("Failures", [], True))
    rows.append(("Found (inspections finding a failure)", ["failures", "found"], False))
    rows.append(("Corrected (a later inspection found no failure)",
                 ["failures", "corrected"], False))
    rows.append(("Systems in failure at the period's end (parcels)",
                 ["failures", "systems_in_failure_at_end"], False))
    rows.append(("Letters issued (dated in the period, each once: the letter in force "
                 "at its end)", [], True))
    for kind in f["totals"]["letters_issued"]:
        label = {"corrections": "Of these, corrections of an earlier letter",
                 "replaced": "Replaced by a correction (not counted above)"}.get(
                     kind) or kind_words(kind)
        rows.append((label, ["letters_issued", kind], False))
    rows.append(("Notices served (dated in the period, in force at its end)",
                 ["notices_served", "notices"], True))
    for key, label in (("served", "Served by the period's end"),
                       ("confirmed", "Of these, delivery confirmed"),
                       ("unconfirmed", "Of these, delivery not confirmed"),
                       ("returned", "Of these, returned undelivered"),
                       ("not_served", "Not served")):
        rows.append((label, ["notices_served", key], False))
    rows.append(("Enhanced treatment units at the period's end", [], True))
    rows.append(("Units", ["etu", "units"], False))
    rows.append(("Service contract, inspections and reports on time",
                 ["etu", "compliant"], False))
    rows.append(("Holding tanks at the period's end", [], True))
    rows.append(("Tanks", ["holding_tanks", "units"], False))
    rows.append(("Hauler contract, every pump-out record received",
                 ["holding_tanks", "compliant"], False))
    rows.append(("Records received from providers in the period", [], True))
    for key, label in (
            ("etu_reports_received", "ETU service reports received"),
            ("etu_reports_late", "Of these, received late"),
            ("etu_reported_not_functional", "ETU services in the period finding the unit "
                                            "not fully functional"),
            ("etu_contracts_lapsed_at_end", "ETU service contracts lapsed at the period's "
                                            "end (as last reported)"),
            ("pump_out_records_received", "Pump-out records received"),
            ("pump_out_records_late", "Of these, received late")):
        rows.append((label, ["records_received", key], False))
    rows.append(("Systems within 200 ft (five-year cycle)", ["five_year", "within_200ft"],
                 True))
    rows.append(("Five-year inspections due in the period", ["five_year", "due_in_period"],
                 False))
    rows.append(("Of these, done on time", ["five_year", "done_on_time"], False))
    rows.append(("Of these, done late", ["five_year", "done_late"], False))
    rows.append(("Of these, not done by the period's end", ["five_year", "not_done_by_end"],
                 False))
    rows.append(("Systems overdue at the period's end", ["five_year", "overdue_at_end"], False))
    rows.append(("Systems within 200 ft never inspected by the period's end",
                 ["five_year", "never_inspected_at_end"], False))
    rows.append(("Not in these counts: lake zone undetermined, never inspected "
                 "(see Systems on record)",
                 ["five_year", "undetermined_never_inspected_at_end"], False))
    rows.append(("Systems on record (parcels)", ["systems_on_record", "parcels"], True))
    for k, label in _ZONE_ROWS:
        rows.append((label, ["systems_on_record", k], False))
    rows.append(("Never inspected by the period's end (parcels)",
                 ["systems_on_record", "never_inspected_at_end", "parcels"], True))
    for k, label in _ZONE_ROWS:
        rows.append((label, ["systems_on_record", "never_inspected_at_end", k], False))
    return rows


def _value(tally: dict[str, Any], path: list[Any]) -> str:
    if path[0] in _JUDGED and not tally["law_on_file"]:
        return "-"
    v: Any = tally
    for key in path:
        v = v[key]
    return f"{v:,}"


def tally_table(f: dict[str, Any]) -> RLTable:
    cell = _styles()["cell"].clone("tally", fontSize=7.5, leading=8.6)
    head = cell.clone("head", fontName=BOLD)
    names = list(f["municipalities"])
    columns = [*names, "Total"] if len(names) > 1 else names or ["Total"]
    tallies = [f["by_municipality"][n] for n in names] + ([f["totals"]] if len(names) > 1 else [])
    if not names:
        tallies = [f["totals"]]
    right = head.clone("right", alignment=2)
    data = [[RLParagraph("", head), *[RLParagraph(c, right) for c in columns]]]
    style = [("FONT", (0, 0), (-1, -1), FONT, 7.5), ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
             ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
             ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
             ("TOPPADDING", (0, 0), (-1, -1), 0.6), ("BOTTOMPADDING", (0, 0), (-1, -1), 0.6)]
    for i, (label, path, heading) in enumerate(_tally_rows(f), start=1):
        text = RLParagraph(label, head if heading else cell.clone("ind", leftIndent=8))
        data.append([text, *[_value(t, path) if path else "" for t in tallies]])
        if heading:
            style.append(("LINEABOVE", (0, i), (-1, i), 0.3, colors.HexColor("#888888")))
            style.append(("FONT", (1, i), (-1, i), BOLD, 7.5))
    label_w = 235
    col_w = (WIDTH - label_w) / max(1, len(columns))
    table = RLTable(data, colWidths=[label_w, *[col_w] * len(columns)], repeatRows=1)
    table.setStyle(TableStyle(style))
    return table


def open_matters_table(f: dict[str, Any]) -> RLTable | RLParagraph:
    s = _styles()
    rows = f["open_matters"]
    if not rows:
        return RLParagraph("No open matters at the period's end.", s["body"])
    cell = s["cell"]
    head = cell.clone("head", fontName=BOLD)
    data = [[RLParagraph(h, head) for h in ("Tax map (SBL)", "Site address", "Municipality",
                                            "Open matter", "Since", "Section")]]
    # a date is never broken: its column is as wide as the widest date (or its heading)
    whole = cell.clone("whole", splitLongWords=0)
    since_w = max([pdfmetrics.stringWidth("Since", BOLD, head.fontSize)] + [
        pdfmetrics.stringWidth(str(m["since"]), cell.fontName, cell.fontSize)
        for m in rows]) + 2 * PAD + 1
    for m in rows:
        data.append([RLParagraph(m["sbl"], cell), RLParagraph(m["site_address"], cell),
                     RLParagraph(m["municipality"], cell), RLParagraph(m["matter"], cell),
                     RLParagraph(str(m["since"]), whole),
                     RLParagraph(m["section"] or "", cell)])
    table = RLTable(data, colWidths=[72, 90, 78, 172 - since_w, since_w, WIDTH - 412],
                    repeatRows=1)
    table.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), FONT, 7.5),
                               ("VALIGN", (0, 0), (-1, -1), "TOP"),
                               ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
                               ("LINEBELOW", (0, 1), (-1, -1), 0.25, colors.HexColor("#999999")),
                               ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                               ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5)]))
    return table


def render_program_report(inputs: ReportInputs) -> bytes:
    """The report's PDF; the same inputs give the same bytes."""
    register_fonts()
    f = inputs.figures
    s = _styles()
    title = s["title"].clone("ptitle", alignment=0)
    small = s["small"]
    places = ", ".join(f["municipalities"]) or "none on record"
    lawless = [n for n in f["municipalities"] if not f["by_municipality"][n]["law_on_file"]]
    story: list[Any] = [
        RLParagraph("Septic system inspection program report", title),
        RLParagraph(f"Municipalities: {places}.", s["subject"]),
        RLParagraph(f"Period: {f['from']} to {f['to']} (both days included). Worked out on "
                    f"{f['as_of']} from the inspection program's records. Prepared by "
                    f"{inputs.office}, {inputs.department}.", small),
        Spacer(1, 6),
        tally_table(f),
    ]
    if lawless:
        story.append(RLParagraph(f"A dash (-): not judged, no law on file for "
                                 f"{', '.join(lawless)}.", small))
    story.append(PageBreak())
    if not f["totals"]["inspections"]:
        story.append(RLParagraph("No inspection was recorded in the period, so there is no "
                                 "chart of inspections and no map.", s["body"]))
        story.append(overdue_chart(f))
    else:
        for drawing in charts(f).values():
            story += [drawing, Spacer(1, 8)]
        story.append(RLParagraph("Charts count all the municipalities above together.", small))
        story.append(PageBreak())
        story.append(RLParagraph("Inspected systems around the lake", s["heading"]))
        if inputs.map is not None:
            story.append(lake_map(inputs.map))
        else:
            story.append(RLParagraph("No shoreline layer is active in this data folder, so no "
                                     "map is drawn.", small))
        missing = f.get("map_without_location") or []
        if missing:
            story.append(RLParagraph(f"Not on the map (no location on record): "
                                     f"{', '.join(missing)}.", small))
    story.append(PageBreak())
    story.append(RLParagraph(f"Open matters at the period's end ({f['to']})", s["heading"]))
    story.append(open_matters_table(f))
    story.append(Spacer(1, 10))
    notes = [RLParagraph("What the figures count", s["heading"])]
    notes += [RLParagraph(n, small) for n in inputs.notes]
    story.append(KeepTogether(notes))
    out = io.BytesIO()
    doc = SimpleDocTemplate(out, pagesize=LETTER, leftMargin=MARGIN, rightMargin=MARGIN,
                            topMargin=MARGIN, bottomMargin=MARGIN,
                            title="Septic system inspection program report",
                            author=inputs.office, invariant=True)
    label = f"Inspection program report {f['from']} to {f['to']}"
    doc.build(story, canvasmaker=_page_numbers(label))
    return out.getvalue()
