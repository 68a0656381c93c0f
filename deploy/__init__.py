"""Running Fichas as several shards behind nginx (see the README, "Growing past one process")."""
