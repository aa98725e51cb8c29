"""Business days (GCL § 25-a) over New York's public holidays (GCL § 24), hand-worked."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date

import pytest

from inspector_app.domain.business_days import (
    NEW_YORK,
    HolidayCalendar,
    days_after,
    holiday,
    next_business_day,
)
from inspector_app.domain.jurisdiction import JurisdictionError, parse_jurisdiction
from inspector_app.paths import resource


@pytest.mark.parametrize(("day", "moved"), [
    (date(2027, 4, 3), date(2027, 4, 5)),     # a Saturday -> Monday
    (date(2027, 1, 3), date(2027, 1, 4)),     # a Sunday -> Monday
    (date(2027, 1, 18), date(2027, 1, 19)),   # Martin Luther King Jr. Day -> Tuesday
    (date(2027, 4, 19), date(2027, 4, 19)),   # a plain Monday stays
    (date(2027, 2, 12), date(2027, 2, 16)),   # Lincoln's Birthday (Fri), weekend, Washington's
    (date(2027, 7, 4), date(2027, 7, 6)),     # Independence Day on a Sunday: Monday too (§ 24)
    (date(2027, 11, 2), date(2027, 11, 3)),   # general election day
    (date(2027, 11, 11), date(2027, 11, 12)),  # Veterans Day
    (date(2027, 12, 25), date(2027, 12, 27)),  # Christmas on a Saturday -> Monday
])
def test_a_date_moves_to_the_next_business_day(day: date, moved: date) -> None:
    assert next_business_day(day) == moved


def test_days_the_library_lists_that_section_24_does_not_name_are_business_days() -> None:
    # Susan B. Anthony Day (February 15) is in the library's New York list, not in § 24
    assert holiday(date(2028, 2, 15)) is None
    assert next_business_day(date(2028, 2, 15)) == date(2028, 2, 15)
    # the library's "observed" Friday before a Saturday holiday is no holiday under § 24
    assert holiday(date(2027, 12, 24)) is None
    assert next_business_day(date(2027, 12, 24)) == date(2027, 12, 24)
    # ... and a Saturday holiday does not make the Monday after one
    assert holiday(date(2027, 12, 27)) is None


def test_counting_days_lands_on_a_business_day() -> None:
    # a notice dated December 4, 2026 with 120 days: April 3, 2027, a Saturday
    assert days_after(date(2026, 12, 4), 120) == date(2027, 4, 5)
    # 30 days from December 4, 2026: January 3, 2027, a Sunday
    assert days_after(date(2026, 12, 4), 30) == date(2027, 1, 4)
    # 30 days from December 19, 2026: January 18, 2027, Martin Luther King Jr. Day
    assert days_after(date(2026, 12, 19), 30) == date(2027, 1, 19)


def test_the_calendar_is_the_jurisdiction_file_s() -> None:
    bundled = parse_jurisdiction(resource("jurisdictions/town-of-canandaigua-ch202.toml")
                                 .read_text("utf-8"), source="bundled")
    assert bundled.holiday_calendar == NEW_YORK
    assert "business_days.calendar" in bundled.unconfirmed_values
    text = resource("jurisdictions/town-of-canandaigua-ch202.toml").read_text("utf-8")
    # Susan B. Anthony Day counted after all: February 15, 2028 (a Tuesday) moves
    counted = parse_jurisdiction(text.replace('not_public_holidays = ["Susan B. Anthony Day"]',
                                              "not_public_holidays = []"), source="edited")
    assert counted.holiday_calendar == HolidayCalendar(not_holidays=())
    assert next_business_day(date(2028, 2, 15), counted.holiday_calendar) == date(2028, 2, 16)
    # a file without the table follows New York's, marked unconfirmed
    start = text.index("[business_days]")
    older_text = re.sub(r',\s*"business_days\.calendar"', "", text[:start])
    assert "business_days" not in older_text
    older = parse_jurisdiction(older_text, source="older")
    assert older.holiday_calendar == NEW_YORK
    assert "business_days.calendar" in older.unconfirmed_values
    with pytest.raises(JurisdictionError, match="calendar is 'US-XX'"):
        parse_jurisdiction(text.replace('calendar = "US-NY"', 'calendar = "US-XX"'),
                           source="typo")


@pytest.mark.parametrize(("last", "due"), [
    (date(2021, 12, 6), date(2026, 12, 7)),   # five years on: a Sunday -> Monday
    (date(2022, 1, 1), date(2027, 1, 4)),     # New Year's Day 2027, a Friday, then a weekend
    (date(2022, 1, 17), date(2027, 1, 19)),   # a Sunday, then Martin Luther King Jr. Day
    (date(2021, 7, 4), date(2026, 7, 6)),     # Saturday July 4, 2026: no Friday before it
    (date(2022, 4, 29), date(2027, 4, 29)),   # a Thursday stays
])
def test_the_five_year_due_date_moves_off_weekends_and_holidays(last: date, due: date) -> None:
    from inspector_app.domain.rules import next_inspection_due

    law = parse_jurisdiction(resource("jurisdictions", "town-of-canandaigua-ch202.toml")
                             .read_text("utf-8"), source="bundled")
    assert next_inspection_due(last, law) == due
    # a town whose calendar knows no holidays moves it off the weekend alone
    plain = replace(law, holiday_calendar=HolidayCalendar(calendar="US", not_holidays=(
        "New Year's Day", "Martin Luther King Jr. Day", "Independence Day"),
        sunday_holiday_next_day=False))
    assert next_inspection_due(date(2022, 1, 17), plain) == date(2027, 1, 18)
