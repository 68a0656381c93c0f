"""The frames the server writes itself are what a websocket client reads back (RFC 6455)."""

import pytest
from wsproto.connection import Connection, ConnectionType
from wsproto.events import TextMessage

from web.ws.hub import text_frame


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_a_text_frame_of_any_size_reads_back_whole(size):
    text = "Ñ" + "a" * (size - 2) if size >= 2 else "a" * size  # exactly `size` bytes, not all ASCII
    assert len(text.encode()) == size
    client = Connection(ConnectionType.CLIENT)
    client.receive_data(text_frame(text))
    events = list(client.events())
    assert len(events) == 1 and isinstance(events[0], TextMessage)
    assert events[0].data == text and events[0].message_finished
