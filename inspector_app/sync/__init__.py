"""Field <-> office sync by package file."""
