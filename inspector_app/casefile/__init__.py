"""The case file (`watershed-inspector/case/1`): strict reading and canonical writing.

Structure is checked against a JSON Schema derived from the fields' declarations
(`domain/registry`, published as `docs/case-1.schema.json`); what a schema cannot say
(real calendar dates, dates after "today", cross-field consistency, GeoJSON shape) is
checked while the values are built. Every refusal names the file and the field.

Extensions to the contract are optional keys only, so every valid version-1 file from
another office stays valid here.
"""

from __future__ import annotations

import json
from datetime import date

from ..domain.case import COMPONENT_GEOMETRIES, SITE_FEATURE_GEOMETRIES, Case
from ..domain.field_spec import DATE_PATTERN, SBL_PATTERN
from .geometry import geometry_fault
from .messages import CaseFileError, describe
from .reader import MAX_CASE_FILE_BYTES, parse_document, parse_text, read_file
from .schema import FORMAT, case_schema
from .values import field_problem
from .writer import dumps, to_document

__all__ = ["COMPONENT_GEOMETRIES", "DATE_PATTERN", "FORMAT", "MAX_CASE_FILE_BYTES",
           "SBL_PATTERN", "SITE_FEATURE_GEOMETRIES", "CaseFileError", "case_schema",
           "describe", "dumps", "field_problem", "geometry_fault", "new_problem",
           "parse_document", "parse_text", "problem", "read_file", "to_document"]


def problem(case: Case, *, source: str, today: date) -> str | None:
    """What the case-file reader would say of this case, or None if it reads cleanly."""
    try:
        parse_document(json.loads(json.dumps(to_document(case))), source=source, today=today)
    except CaseFileError as exc:
        return str(exc)
    return None


def new_problem(before: Case, after: Case, *, source: str, today: date) -> str | None:
    """The reader's complaint about `after` if an edit from `before` made it read worse.

    A record may hold less than a case file needs (a parcel from the assessment roll has no
    dwelling yet); an edit of something else is not refused for what it did not cause."""
    found = problem(after, source=source, today=today)
    if found is None or found == problem(before, source=source, today=today):
        return None
    return found
