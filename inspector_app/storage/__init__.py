"""The data folder's SQLite database: the only package that imports sqlite-utils and the
only one that holds SQL, behind functions named for what they do."""
