"""Geometry and coordinate systems: the only package that imports shapely and pyproj."""
