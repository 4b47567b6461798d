"""Bodies of every framing through gunicorn (the server's own reader is the subject): a chunk size
that is not hex, a chunked body cut off before its last chunk, and one past the size limit are a
400 or 413 problem+json, never a 500 and never a traceback in the log. No credentials needed: these
reach the server before anything else looks at the request."""

from __future__ import annotations

import json
import socket
from urllib.parse import urlsplit

import pytest

from tests.helpers.live import LiveServer

HEAD = (
    "POST /v1/rounds/score HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
    "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
)


def send_raw(server: LiveServer, data: bytes, *, cut: bool = False) -> tuple[int, dict[str, str], bytes]:
    """Send ``data`` as is; ``cut``: then close our half (the body ends mid-chunk). The answer's
    status, headers and body."""
    parts = urlsplit(server.url)
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as sock:
        sock.sendall(data)
        if cut:
            sock.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in header_lines)}
    return int(status_line.split()[1]), headers, body


@pytest.mark.parametrize(
    ("name", "body", "cut"),
    [
        ("a chunk size that is not hex", b"ZZ\r\n{}\r\n0\r\n\r\n", False),
        ("a chunk longer than it said", b'2\r\n{"teams": []}\r\n0\r\n\r\n', False),
        ("cut off mid-chunk", b'40\r\n{"preset": "pagat"', True),
        ("cut off before the last chunk", b"2\r\n{}\r\n", True),
    ],
)
def test_broken_chunked_framing_is_a_400_problem(live_server: LiveServer, name: str, body: bytes, cut: bool) -> None:
    before = live_server.log()
    status, headers, answer = send_raw(live_server, HEAD.encode() + body, cut=cut)
    assert status == 400, (name, status, answer[:300])
    assert headers["content-type"] == "application/problem+json"
    problem = json.loads(answer.split(b"\r\n", 1)[-1] if headers.get("transfer-encoding") == "chunked" else answer)
    assert problem["status"] == 400
    assert "Traceback" not in live_server.log()[len(before) :]


def test_a_chunked_body_past_the_limit_is_a_413(live_server: LiveServer) -> None:
    big = b"x" * (2 * 1024 * 1024)
    body = f"{len(big):x}\r\n".encode() + big + b"\r\n0\r\n\r\n"
    status, headers, _ = send_raw(live_server, HEAD.encode() + body)
    assert (status, headers["content-type"]) == (413, "application/problem+json")
