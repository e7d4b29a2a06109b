"""Against a real HTTP server: a body that claims to be huge but is small gets its answer at once,
instead of the server waiting for bytes that never come."""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

import pytest


def raw_request(live_server, request: bytes, timeout: float = 20) -> bytes:
    """Send `request` and keep the socket open (so the server cannot see the body end); return
    what the server answers within `timeout`, up to a pause of a second after its first bytes."""
    address = urlsplit(live_server.url)
    with socket.create_connection((address.hostname, address.port), timeout=timeout) as connection:
        connection.sendall(request)
        answer = connection.recv(65536)
        connection.settimeout(1)
        try:
            while chunk := connection.recv(65536):
                answer += chunk
        except TimeoutError:
            pass
        return answer


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("path", "content_type", "status"),
    [
        ("/api/v1/analyze/", "text/plain", {b"413"}),
        ("/api/v1/explains/", "text/plain", {b"413"}),
        ("/api/v1/explains/", "application/json", {b"413"}),
        ("/", "application/x-www-form-urlencoded", {b"400", b"403", b"413"}),  # 403: no CSRF token
    ],
)
def test_claimed_huge_body_is_answered_without_waiting(live_server, settings, path, content_type, status):
    settings.API_CREATE_RATE = "100000/minute"
    request = (
        f"POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: {content_type}\r\n"
        f"Content-Length: 999999999999\r\nAccept: application/json\r\n\r\nexplain=x"
    ).encode()
    answer = raw_request(live_server, request)
    assert answer.split(b"\r\n", 1)[0].split()[1] in status, answer[-600:]
