"""Live tables: the registry, a lock per table, versions, turn clocks, the SQLite store, the clock."""
