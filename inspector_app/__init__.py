"""Watershed Inspector: on-site wastewater inspections under Chapter 202."""

__version__ = "0.1.0"
