"""Templates: the viewer's language, templates compiled per language, compaction, quick renders, dominoes."""
