"""What a change sends: the table rendered once per language in pieces, each viewer's own part, publish."""
