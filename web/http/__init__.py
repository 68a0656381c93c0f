"""Pages, forms, the HTTP API of moves and the record, static files: everything answered over HTTP."""
