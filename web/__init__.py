"""Fichas' web layer: routes, the websocket and its hub, rendering, security and assets."""
