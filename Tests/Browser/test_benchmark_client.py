"""The benchmarks' own HTTP client (Benchmarks/streams.py) against a real server: `make bench`
and `instructions.py` stand on it, and nothing else runs them in `make test`. A 304 carries the
200's Content-Length and a HEAD answer no body: a client reading either as a body waits for
bytes that never come, which once stopped `make bench` at its first revalidation."""
import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "Benchmarks"))
import streams  # noqa: E402

STATIC = "/static/css/app.css"


def connect(server):
    host, port = server.url.removeprefix("http://").split(":")
    return host, int(port)


def test_bodiless_answers_leave_the_connection_in_step(server):
    connection = streams.HTTPConnection(*connect(server), timeout=10)
    try:
        status, headers, body = connection.request("GET", STATIC)
        fields = dict(headers)
        assert status == 200 and fields.get("etag") and len(body) == int(fields["content-length"])

        revalidation = connection.request_bytes("GET", STATIC)[:-2] + f"If-None-Match: {fields['etag']}\r\n\r\n".encode()
        connection.sock.sendall(revalidation)
        status, headers, body = connection.read_response()
        assert (status, body) == (304, b""), "a 304 was read with a body"
        assert dict(headers).get("content-length") == fields["content-length"], "the 304 no longer says the 200's length"

        status, headers, body = connection.request("HEAD", STATIC)
        assert (status, body) == (200, b""), "a HEAD answer was read with a body"

        # The same connection answers the next request: nothing of the last ones was left over.
        status, _, body = connection.request("GET", STATIC)
        assert status == 200 and len(body) == int(fields["content-length"])
    finally:
        connection.close()


def test_the_bench_session_is_made_as_bench_makes_it(server):
    session = streams.Session(*connect(server))
    try:
        status, _, page = session.connection.request("GET", "/cart", session.cookie)
        assert status == 200 and b"csrf" in page
        status, _, _ = session.connection.request("POST", "/cart/items/1/quantity", session.cookie, session.body(session.other_quantity))
        assert status == 303
    finally:
        session.connection.close()
