"""A laptop's clearing of the contact data of parcels it no longer holds."""

from __future__ import annotations

# How the history shows a value this laptop cleared.
CLEARED = "(cleared on the laptop)"
