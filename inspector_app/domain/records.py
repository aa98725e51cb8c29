"""The records kept beside the cases, declared as the case's fields are.

A case file holds a parcel's case (`case.py`); the records also keep what is measured,
decided, attached and sent about it, and the layers the office measures with. Each kind is
declared here with its table, each field with its words, bounds and who may write it, so
that a sync package's values, the history's words and the registry's list of columns come
from one place. `EXTRA` names the columns of the case's own tables that the case file does
not hold: a list item's place, the record it belongs to, the office's demo mark.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .annotations import ANNOTATION_PATTERN, MAX_ANNOTATIONS
from .field_spec import SHA256_PATTERN, Text, Writer, declare, declare_many, record
from .vocabulary import ComponentKind, InspectionReason, LakeDistanceMethod

MAX_SEQ = 2**31 - 1
# A distance measured on the map: a layer far from the parcels (another lake's, by mistake)
# measures what it measures, and the measurement is kept as evidence; the bound is only
# that of a distance within New York State Plane.
MAX_DISTANCE_FT = 5_000_000
MAX_ACCURACY_FT = 10_000
MAX_POSITION = 100_000
MAX_ATTACHMENT_BYTES = 200 * 1024**2
# A shoreline layer's outline, the one long text a record holds.
MAX_GEOMETRY_TEXT = 20 * 1024**2

# A camera's time: local, with its offset from UTC when the camera wrote one.
TAKEN_AT_PATTERN = (r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}"
                    r"([+-][0-9]{2}:[0-9]{2})?$")

LAKE_METHODS = ("map", *(m.value for m in LakeDistanceMethod))


@record("Lake distance measurement", table="lake_measurements")
@dataclass(frozen=True, kw_only=True)
class LakeMeasurement:
    distance_ft: float = declare("Distance to the lake line", unit="ft", minimum=0,
                                 maximum=MAX_DISTANCE_FT)
    method: str = declare("Method", choices=LAKE_METHODS)
    shoreline_layer_id: str | None = declare("Shoreline layer", default=None,
                                             reference_to="shoreline_layers")
    shoreline_layer_version: int | None = declare("Shoreline layer version", default=None,
                                                  minimum=1, maximum=MAX_SEQ)
    accuracy_ft: float | None = declare("Accuracy", default=None, unit="ft", minimum=0,
                                        maximum=MAX_ACCURACY_FT, plus_minus=True)
    capture_accuracy_ft: float | None = declare("Capture accuracy of the area", default=None,
                                                unit="ft", minimum=0,
                                                maximum=MAX_ACCURACY_FT, plus_minus=True)
    measured_by: str = declare("Measured by", text=Text.NAME)
    measured_on: str = declare("Measured on", text=Text.PLAIN, date_text=True)
    note: str | None = declare("Note", default=None)


@record("Lot-line separation", table="lot_measurements")
@dataclass(frozen=True, kw_only=True)
class LotMeasurement:
    component: ComponentKind = declare("Component")
    ordinal: int = declare("Component number", minimum=1, maximum=1000)
    distance_ft: float = declare("Distance to the lot line", unit="ft", minimum=0,
                                 maximum=MAX_DISTANCE_FT)
    accuracy_ft: float = declare("Accuracy", unit="ft", minimum=0, maximum=MAX_ACCURACY_FT,
                                 plus_minus=True)
    lot_layer_id: str = declare("Lot layer", reference_to="lot_layers")
    lot_layer_version: int = declare("Lot layer version", minimum=1, maximum=MAX_SEQ)
    measured_by: str = declare("Measured by", text=Text.NAME)
    measured_on: str = declare("Measured on", text=Text.PLAIN, date_text=True)


@record("Photo or document", table="attachments")
@dataclass(frozen=True, kw_only=True)
class Attachment:
    sha256: str = declare("Fingerprint (SHA-256)", text=Text.PLAIN, pattern=SHA256_PATTERN,
                          fixed=True)
    filename: str = declare("File", text=Text.NAME)
    media_type: str = declare("File type", text=Text.NAME)
    size_bytes: int = declare("Size", unit="bytes", minimum=0, maximum=MAX_ATTACHMENT_BYTES,
                              fixed=True)
    caption: str | None = declare("Caption", default=None)
    inspection_id: str | None = declare("Inspection", default=None,
                                        reference_to="inspections")
    component_id: str | None = declare("Component", default=None, reference_to="components")
    # What the camera wrote in the photo (EXIF), read once when it is attached: the time it
    # was taken as the camera's clock showed it (with its offset from UTC when the camera
    # wrote one), and where (GPS, WGS84).
    taken_at: str | None = declare("Taken", default=None, text=Text.PLAIN,
                                   pattern=TAKEN_AT_PATTERN, fixed=True)
    taken_latitude: float | None = declare("Latitude where taken", default=None, unit="°",
                                           minimum=-90, maximum=90, fixed=True)
    taken_longitude: float | None = declare("Longitude where taken", default=None, unit="°",
                                            minimum=-180, maximum=180, fixed=True)
    # Marks drawn over the photo, kept apart from it (its file never changes): each an
    # arrow, a circle or a text in the pixels of the upright photo (`domain/annotations.py`).
    annotations: tuple[str, ...] = declare_many("Marks on the photo",
                                                max_items=MAX_ANNOTATIONS,
                                                item_pattern=ANNOTATION_PATTERN)


@record("Letter", table="letters", writers=Writer.OFFICE)
@dataclass(frozen=True, kw_only=True)
class Letter:
    kind: str = declare("Letter", text=Text.NAME, shown_as_choice=True)
    status: str = declare("Status", text=Text.NAME, shown_as_choice=True)
    letter_date: str = declare("Letter date", text=Text.PLAIN, date_text=True)
    recipient: tuple[str, ...] = declare("Recipient", max_items=12)
    case_version: int = declare("Records it was written from", minimum=0, maximum=2**63 - 1,
                                bookkeeping=True)
    issued_by: str | None = declare("Issued by", default=None, text=Text.NAME)
    issued_at: str | None = declare("Issued at", default=None, text=Text.PLAIN,
                                    timestamp=True)
    sha256: str | None = declare("Fingerprint (SHA-256)", default=None, text=Text.PLAIN)
    pdf: bytes | None = declare("PDF", default=None)
    replaces_letter_id: str | None = declare("Replaces letter", default=None,
                                             reference_to="letters")
    printed_at: str | None = declare("Printed at", default=None, text=Text.PLAIN,
                                     timestamp=True)
    # The dates the letter sets, as served (moved off weekends and public holidays).
    permit_by: str | None = declare("Permit by", default=None, text=Text.PLAIN,
                                    date_text=True, future=True)
    complete_by: str | None = declare("Complete by", default=None, text=Text.PLAIN,
                                      date_text=True, future=True)
    reply_by: str | None = declare("Reply by", default=None, text=Text.PLAIN,
                                   date_text=True, future=True)
    # a discharging holding tank: the pump-out record asked by (§ 202-8 B)
    pump_out_by: str | None = declare("Pump-out record by", default=None, text=Text.PLAIN,
                                      date_text=True, future=True)

    attestation_id: str | None = declare("Attestation", default=None,
                                         reference_to="attestations")
    signature_sha256: str | None = declare("Signature's fingerprint (SHA-256)", default=None,
                                           text=Text.PLAIN, pattern=SHA256_PATTERN)


SERVICE_METHODS = ("first_class_mail", "certified_mail", "hand_delivery", "posting")
SERVICE_EVENTS = ("served", "delivered", "returned")


@record("Service of a letter", table="letter_service", writers=Writer.OFFICE)
@dataclass(frozen=True, kw_only=True)
class LetterService:
    letter_id: str = declare("Letter", reference_to="letters")
    event: str = declare("Event", choices=SERVICE_EVENTS)
    method: str | None = declare("Served by", default=None, choices=SERVICE_METHODS)
    article_number: str | None = declare("Certified mail article number", default=None,
                                         text=Text.PLAIN, pattern=r"^[0-9A-Z]{10,30}$")
    delivered_to: str | None = declare("Handed to", default=None, text=Text.NAME)
    posted_at: str | None = declare("Posted at", default=None, text=Text.NAME)
    signed_by: str | None = declare("Receipt signed by", default=None, text=Text.NAME)
    reason: str | None = declare("Why it came back", default=None, text=Text.NAME)
    event_date: str = declare("On", text=Text.PLAIN, date_text=True)
    recorded_by: str = declare("Recorded by", text=Text.NAME)


ATTESTER_KINDS = ("design_professional", "certified_inspector")

# The register's own tables: a change to them is not a change to the records a letter or
# an attestation is made from (serving a letter leaves its report attested, for one).
REGISTER_TABLES = ("letters", "letter_service", "attestations")


# Chapter 202, Article III: the report of findings is "attested to by a design professional
# or an on-site training network certified inspector". Recorded at the office, never changed;
# it travels with the letters that name it (judged in force only where it was recorded).
@record("Attestation", table="attestations", writers=Writer.OFFICE)
@dataclass(frozen=True, kw_only=True)
class Attestation:
    inspection_id: str = declare("Inspection attested", reference_to="inspections")
    attester_name: str = declare("Attested by", text=Text.NAME)
    attester_kind: str = declare("Attesting as", choices=ATTESTER_KINDS)
    attester_number: str = declare("Certification or licence number", text=Text.NAME)
    attested_on: str = declare("Attested on", text=Text.PLAIN, date_text=True)
    signature_sha256: str = declare("Signature's fingerprint (SHA-256)", text=Text.PLAIN,
                                    pattern=SHA256_PATTERN)
    signature_source: str = declare("Signature", choices=("drawn", "scanned"))
    signature_filename: str = declare("Signature file", text=Text.NAME)
    signature_media_type: str = declare("Signature file type", text=Text.NAME)
    case_version: int = declare("Records attested", minimum=0, maximum=2**63 - 1,
                                bookkeeping=True)


# An inspection asked of the office ahead of a date (a conveyance's closing, a complaint),
# for the reason an inspection records (the same words). Taken at the office; a laptop
# reads those of its parcels. Answered by an inspection (`domain/requests.py`), or
# cancelled: withdrawn, with who, when and why; never removed.
@record("Inspection request", table="inspection_requests", writers=Writer.OFFICE)
@dataclass(frozen=True, kw_only=True)
class InspectionRequest:
    reason: InspectionReason = declare("Reason for the inspection")
    due: str = declare("Inspection due by", text=Text.PLAIN, date_text=True, future=True)
    requested_by: str | None = declare("Requested by", default=None, text=Text.NAME)
    requested_on: str = declare("Requested on", text=Text.PLAIN, date_text=True)
    cancelled_on: str | None = declare("Cancelled on", default=None, text=Text.PLAIN,
                                       date_text=True)
    cancelled_by: str | None = declare("Cancelled by", default=None, text=Text.NAME)
    cancel_reason: str | None = declare("Why it was cancelled", default=None,
                                        text=Text.NAME)


@record("Suggested finding", table="finding_decisions")
@dataclass(frozen=True, kw_only=True)
class FindingDecision:
    suggestion_key: str = declare("Suggestion", text=Text.NAME, suggestion=True)
    decision: str = declare("Decision", choices=("accepted", "rejected"))
    defect: str = declare("Defect", text=Text.NAME)
    citation: str = declare("Citation", text=Text.NAME)
    decided_by: str = declare("Decided by", text=Text.NAME)
    decided_on: str = declare("Decided on", text=Text.PLAIN, date_text=True)
    note: str | None = declare("Note", default=None)


@record("Shoreline layer", table="shoreline_layers", writers=Writer.OFFICE)
@dataclass(frozen=True, kw_only=True)
class ShorelineLayer:
    name: str = declare("Name", text=Text.NAME)
    source: str = declare("Source")
    accuracy_ft: float = declare("Declared accuracy", unit="ft", minimum=0,
                                 maximum=MAX_DISTANCE_FT, plus_minus=True)
    layer_version: int = declare("Version", minimum=1, maximum=MAX_SEQ)
    active: bool = declare("Active")
    imported_at: str = declare("Imported at", text=Text.PLAIN, timestamp=True)
    imported_by: str = declare("Imported by", text=Text.NAME)
    source_crs: str = declare("Coordinate system of the file", text=Text.NAME)
    geometry_kind: str = declare("Kind of layer", choices=("water_body", "line"))
    # in NY State Plane feet, not longitude/latitude: no case geometry check applies
    geometry: dict[str, Any] = declare("Outline", long=True)
    vertex_count: int = declare("Vertices", minimum=0, maximum=MAX_SEQ)
    # imported although it lies far from the law's water body or from every parcel: what
    # the person importing it confirmed
    far_confirmed: str | None = declare("Confirmed although far", default=None)


# a field kit carries the active layer's lots; the layers do not travel as changes
@record("Lot layer", table="lot_layers", writers=Writer.OFFICE, synced=False)
@dataclass(frozen=True, kw_only=True)
class LotLayer:
    name: str = declare("Name", text=Text.NAME)
    source: str = declare("Source")
    accuracy_ft: float = declare("Declared accuracy", unit="ft", minimum=0,
                                 maximum=MAX_DISTANCE_FT, plus_minus=True)
    layer_version: int = declare("Version", minimum=1, maximum=MAX_SEQ)
    active: bool = declare("Active")
    imported_at: str = declare("Imported at", text=Text.PLAIN, timestamp=True)
    imported_by: str = declare("Imported by", text=Text.NAME)
    source_crs: str = declare("Coordinate system of the file", text=Text.NAME)
    sbl_field: str = declare("Tax map number column", text=Text.NAME)
    feature_count: int = declare("Lots", minimum=0, maximum=MAX_SEQ)
    matched_count: int = declare("Lots matched to parcels", minimum=0, maximum=MAX_SEQ)
    digest: str = declare("Fingerprint of the lots", text=Text.PLAIN)


@record("Basemap", table="basemaps", synced=False)
@dataclass(frozen=True, kw_only=True)
class Basemap:
    name: str = declare("Name", text=Text.NAME)
    format: str = declare("Format", choices=("geotiff", "world_file", "mbtiles"))
    storage: str = declare("Kept as", choices=("copy", "reference"))
    path: str = declare("File", text=Text.PLAIN)
    size_bytes: int = declare("Size", unit="bytes", minimum=0)
    fingerprint: str = declare("Fingerprint", text=Text.PLAIN)
    source: str = declare("Source")
    captured_on: str | None = declare("Captured on", default=None, text=Text.PLAIN)
    source_crs: str = declare("Coordinate system of the file", text=Text.NAME)
    bounds: tuple[float, ...] = declare("Extent", unit="ft", max_items=4)
    resolution_ft: float = declare("Resolution", unit="ft", minimum=0)
    width_px: int = declare("Width", unit="px", minimum=0)
    height_px: int = declare("Height", unit="px", minimum=0)
    active: bool = declare("Active")
    imported_at: str = declare("Imported at", text=Text.PLAIN, timestamp=True)
    imported_by: str = declare("Imported by", text=Text.NAME)


@record("Office setting", table="office_settings", synced=False)
@dataclass(frozen=True, kw_only=True)
class OfficeSetting:
    key: str = declare("Setting", text=Text.NAME)
    value: str = declare("Value", plain=True)


# Chapter 202, § 202-8: who writes the records that arrive from outside the office, by the
# number a record names them with. Kept at the office; a record naming an unknown number,
# or one no longer valid on the record's date, is refused.
PROVIDER_KINDS = ("etu-representative", "hauler", "inspector")


@record("Provider", table="providers", writers=Writer.OFFICE, synced=False)
@dataclass(frozen=True, kw_only=True)
class Provider:
    kind: str = declare("Kind", choices=PROVIDER_KINDS, fixed=True)
    name: str = declare("Name", text=Text.NAME)
    number: str = declare("Certification or permit number", text=Text.NAME, fixed=True,
                          pattern=r"^[0-9A-Za-z][0-9A-Za-z .-]*$", max_length=40)
    company: str | None = declare("Company", default=None, text=Text.NAME)
    valid_through: str | None = declare("Valid through", default=None, text=Text.PLAIN,
                                        date_text=True, future=True)


# The kinds of file the office takes in, and the provider each names.
RECEIVED_KINDS = {"etu-service": "etu-representative", "pump-out": "hauler"}


@record("Received document", table="received_documents", writers=Writer.OFFICE,
        synced=False)
@dataclass(frozen=True, kw_only=True)
class ReceivedDocument:
    sha256: str = declare("Fingerprint (SHA-256)", text=Text.PLAIN, pattern=SHA256_PATTERN,
                          fixed=True)
    kind: str = declare("Kind", choices=tuple(RECEIVED_KINDS), fixed=True)
    filename: str = declare("File", text=Text.NAME)
    media_type: str = declare("File type", text=Text.NAME)
    size_bytes: int = declare("Size", unit="bytes", minimum=0, maximum=MAX_ATTACHMENT_BYTES)
    received_on: str = declare("Received on", text=Text.PLAIN, date_text=True)
    imported_at: str = declare("Imported at", text=Text.PLAIN, timestamp=True)
    imported_by: str = declare("Imported by", text=Text.NAME)
    records: int = declare("Records made", minimum=0, maximum=MAX_SEQ)
    refused: int = declare("Rows refused", minimum=0, maximum=MAX_SEQ)


RECORDS: tuple[type, ...] = (LakeMeasurement, LotMeasurement, Attachment, Letter,
                             LetterService, Attestation, InspectionRequest,
                             FindingDecision, ShorelineLayer,
                             LotLayer, Basemap,
                             OfficeSetting, Provider, ReceivedDocument)
# Records of one data folder alone, never sent to another device: the imagery it holds
# and its own settings (their changes are logged without a device sequence number).
LOCAL_TABLES = frozenset({"basemaps", "office_settings"})


@record("Place in a list")
@dataclass(frozen=True, kw_only=True)
class _Listed:
    position: int = declare("Place in the list", minimum=0, maximum=MAX_POSITION,
                            bookkeeping=True)


@record("Component's system")
@dataclass(frozen=True, kw_only=True)
class _OfSystem:
    system_id: str = declare("System", reference_to="systems")


@record("Test's inspection")
@dataclass(frozen=True, kw_only=True)
class _OfInspection:
    inspection_id: str = declare("Inspection", reference_to="inspections")


@record("Office's marks on a parcel")
@dataclass(frozen=True, kw_only=True)
class _ParcelMarks:
    is_demo: bool = declare("Demo parcel", writers=Writer.OFFICE)


@record("Site feature's coordinate system")
@dataclass(frozen=True, kw_only=True)
class _FeatureCrs:
    crs: str = declare("Coordinate system", text=Text.NAME)


@record("Inspection entered in error")
@dataclass(frozen=True, kw_only=True)
class _Void:
    """An inspection entered in error stays on record, marked void; clearing the mark
    undoes it. Only the office marks one."""

    void_reason: str | None = declare("Entered in error", default=None,
                                      writers=Writer.OFFICE)
    voided_by: str | None = declare("Marked in error by", default=None, text=Text.NAME,
                                    writers=Writer.OFFICE)
    voided_on: str | None = declare("Marked in error on", default=None, text=Text.PLAIN,
                                    date_text=True, writers=Writer.OFFICE)


# The columns of the case's tables beyond what the case file holds, by table (read by
# the registry as fields of those tables).
EXTRA: dict[str, tuple[type, ...]] = {
    "renters": (_Listed,), "etu_reports": (_Listed,), "pump_outs": (_Listed,),
    "site_features": (_Listed, _FeatureCrs), "components": (_OfSystem, _Listed),
    "inspection_tests": (_OfInspection, _Listed), "parcels": (_ParcelMarks,),
    "inspections": (_Void,),
}
