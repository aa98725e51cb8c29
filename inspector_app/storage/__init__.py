"""The data folder's SQLite database: the only package that imports sqlite-utils."""
