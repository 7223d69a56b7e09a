"""gamecheck tests; a package so that helper modules import as `tests.NAME`."""
