"""A browser that stops reading must never hold up its table, the clock, or other browsers."""

from __future__ import annotations

import os
import random
import shutil
import socket
import ssl
import subprocess
import threading
from types import SimpleNamespace

import pytest
from wsproto import ConnectionType
from wsproto.connection import Connection as Frames
from wsproto.events import CloseConnection, TextMessage

from helpers import open_table
from helpers.pages import play_until
from web.ws.hub import MAX_QUEUED, Connection


class StuckSocket:
    """A socket whose send blocks until released, like a client that never reads."""

    def __init__(self):
        self.release = threading.Event()
        self.sent = 0

    def send(self, data):
        self.release.wait()
        self.sent += 1


def test_a_stuck_reader_never_blocks_moves_and_is_cut_off(app):
    url, players = open_table(app, "block", 2, names=("Ana", "Bea"))
    table_id = url.rsplit("/", 1)[1]
    stuck = StuckSocket()
    connection = Connection(stuck, None)
    app.extensions["fichas"].hub.add(table_id, connection)
    writer = threading.Thread(target=connection.flush, args=(5,), daemon=True)
    writer.start()  # its writer is now blocked inside send, as on a full socket
    table = play_until(app, url, players, random.Random(5),
                       lambda t: t.version >= 8 or t.phase != "playing")
    assert table.version >= 3  # moves went on while that browser's writer was stuck
    for _ in range(MAX_QUEUED + 1):  # pushes keep coming; the stuck browser falls behind
        app.extensions["fichas"].tables.publish(table)
    assert not connection.alive
    stuck.release.set()
    writer.join(5)


def test_a_message_the_kernel_took_in_part_ends_whole_before_the_close():
    # A page that reads slowly: its kernel buffer fills, a push goes out in part at once and the
    # rest is queued; the socket is then ended. The page still reads every message whole, in
    # order, then the close: cutting the rest off would leave it a broken frame.
    server, client = socket.socketpair()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    connection = Connection(SimpleNamespace(sock=server, connected=True), None)
    sent = []
    while not connection.pending():  # nothing read yet: the buffers fill, then a push is queued in part
        sent.append(f"{len(sent)}:" + "x" * 20_000)
        assert connection.send(sent[-1])
    frames = Frames(ConnectionType.SERVER)
    connection.finish(frames.send(CloseConnection(1001, "bye")))

    def write():  # the page's handler
        while not connection.done:
            connection.flush(1)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    page = Frames(ConnectionType.CLIENT)
    client.settimeout(5)
    while data := client.recv(65536):
        page.receive_data(data)
    events = list(page.events())
    writer.join(5)
    assert [e.data for e in events[:-1] if isinstance(e, TextMessage)] == sent
    assert isinstance(events[-1], CloseConnection) and events[-1].code == 1001
    server.close()
    client.close()


def test_a_tls_socket_is_written_through_its_encryption(tmp_path):
    # gunicorn can serve TLS itself (--certfile): a push written at once on the socket under the
    # TLS one would go out unencrypted and break the page's stream. Those go through the handler.
    if shutil.which("openssl") is None:
        if os.environ.get("FICHAS_NO_SKIP") == "1":
            pytest.fail("FICHAS_NO_SKIP=1 but openssl is missing", pytrace=False)
        pytest.skip("no openssl to make a certificate with (apt-get install openssl)")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    made = subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                           "-subj", "/CN=localhost", "-keyout", str(key), "-out", str(cert)],
                          capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    server_side = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_side.load_cert_chain(cert, key)
    client_side = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    client_side.load_verify_locations(cert)
    server_raw, client_raw = socket.socketpair()
    client_raw.settimeout(5)
    sockets: list = []  # the server's end, once its handshake is done
    handshake = threading.Thread(target=lambda: sockets.append(server_side.wrap_socket(server_raw,
                                                                                       server_side=True)))
    handshake.start()
    client = client_side.wrap_socket(client_raw, server_hostname="localhost")
    handshake.join(5)
    connection = Connection(SimpleNamespace(sock=sockets[0], connected=True), None)
    sent = [f"push {n}" for n in range(3)]
    assert all(connection.send(message) for message in sent)

    def write():  # the page's handler
        while connection.pending():
            connection.flush(1)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    page = Frames(ConnectionType.CLIENT)
    messages: list[str] = []
    while len(messages) < len(sent):
        page.receive_data(client.recv(65536))
        messages += [e.data for e in page.events() if isinstance(e, TextMessage)]
    writer.join(5)
    assert messages == sent
    client.close()
    sockets[0].close()
