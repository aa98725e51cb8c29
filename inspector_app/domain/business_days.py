"""Business days: a date a letter sets that falls on a Saturday, a Sunday or a public
holiday moves to the next business day (NY General Construction Law § 25-a).

The public holidays are those of the jurisdiction file's `[business_days]` table: the
`holidays` library's calendar it names (for New York, "US-NY"), less the days the library
lists that are not public holidays under the law (General Construction Law § 24 does not
name Susan B. Anthony Day), and, where the law says so (§ 24: "if any of such days ... is
Sunday, the next day thereafter"), the Monday after a holiday that falls on a Sunday. The
library's other "observed" days (the Friday before a holiday on a Saturday) are not used:
§ 24 makes no such day a holiday. This module is the only one that imports `holidays`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache

SATURDAY, SUNDAY = 5, 6


@dataclass(frozen=True)
class HolidayCalendar:
    """Which days are public holidays: the library's calendar (country, and subdivision
    after a hyphen), the names it lists that are not public holidays, and whether a holiday
    on a Sunday makes the Monday after one too."""

    calendar: str = "US-NY"
    not_holidays: tuple[str, ...] = ("Susan B. Anthony Day",)
    sunday_holiday_next_day: bool = True


NEW_YORK = HolidayCalendar()


def known_calendar(calendar: str) -> bool:
    """Whether the holiday library has this calendar ("US", "US-NY", ...)."""
    import holidays

    country, _, subdivision = calendar.partition("-")
    try:
        holidays.country_holidays(country, subdiv=subdivision or None, years=2000)
    except NotImplementedError:
        return False
    return True


@lru_cache(maxsize=64)
def _holidays(cal: HolidayCalendar, year: int) -> dict[date, str]:
    import holidays

    country, _, subdivision = cal.calendar.partition("-")
    listed = holidays.country_holidays(country, subdiv=subdivision or None, years=year,
                                       observed=False)
    out: dict[date, str] = {}
    for day, names in listed.items():
        kept = [n for n in names.split("; ") if n not in cal.not_holidays]
        if kept:
            out[day] = "; ".join(kept)
    if cal.sunday_holiday_next_day:
        for day, name in list(out.items()):
            if day.weekday() == SUNDAY:
                out.setdefault(day + timedelta(days=1), f"{name} (the Monday after)")
    return out


def holiday(day: date, cal: HolidayCalendar = NEW_YORK) -> str | None:
    """The public holiday on `day` (its name), or None."""
    return _holidays(cal, day.year).get(day)


def is_business_day(day: date, cal: HolidayCalendar = NEW_YORK) -> bool:
    return day.weekday() not in (SATURDAY, SUNDAY) and holiday(day, cal) is None


def next_business_day(day: date, cal: HolidayCalendar = NEW_YORK) -> date:
    """`day` itself when it is a business day, else the first business day after it."""
    while not is_business_day(day, cal):
        day += timedelta(days=1)
    return day


def days_after(start: date, days: int, cal: HolidayCalendar = NEW_YORK) -> date:
    """The date `days` calendar days after `start`, moved to the next business day."""
    return next_business_day(start + timedelta(days=days), cal)
