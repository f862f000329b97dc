"""`serve`: pages and the 404 page, no listings or hidden files, clean 400s, a busy port, no
site, Ctrl-C."""

from __future__ import annotations

import http.client
import signal
import socket
import subprocess
import sys
import threading

import pytest
from click.testing import CliRunner
from rulesarchive.site_builder.serve import make_server

from rulesarchive.cli import main


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    site = tmp_path_factory.mktemp("serve") / "site"
    (site / "folder").mkdir(parents=True)
    (site / "index.html").write_text("<h1>home</h1>")
    (site / "404.html").write_text("<h1>not found</h1>")
    (site / ".manifest.json").write_text("{}")
    (site / "folder" / "page.html").write_text("page")
    server = make_server(site, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def _get(server, path: str) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=5)
    connection.request("GET", path)
    response = connection.getresponse()
    status, body = response.status, response.read()
    connection.close()
    return status, body


def test_pages_are_served_and_missing_ones_get_the_404_page(server):
    assert _get(server, "/") == (200, b"<h1>home</h1>")
    assert _get(server, "/folder/page.html") == (200, b"page")
    assert _get(server, "/nothing") == (404, b"<h1>not found</h1>")


def test_no_folder_listings(server):
    assert _get(server, "/folder/") == (404, b"<h1>not found</h1>")


@pytest.mark.parametrize(
    "path", ["/.manifest.json", "/folder/../.manifest.json", "/%2emanifest.json"]
)
def test_hidden_files_are_not_served(server, path):
    assert _get(server, path)[0] == 404


@pytest.mark.parametrize("path", ["/%00", "/index.html%00.txt", "/%ff", "/a%5c..%5cindex.html"])
def test_bad_paths_are_a_clean_400(server, path):
    assert _get(server, path)[0] == 400


def test_threaded_with_a_real_backlog(server):
    assert server.request_queue_size >= 128
    assert server.daemon_threads


def test_a_busy_port_is_one_clear_error(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        (tmp_path / "index.html").write_text("<h1>home</h1>")
        result = CliRunner().invoke(main, ["serve", "--out", str(tmp_path), "--port", str(port)])
    assert result.exit_code == 1
    assert f"Error: port {port} on 127.0.0.1 is in use" in result.output
    assert "Traceback" not in result.output


def test_serving_a_folder_with_no_built_site_says_how_to_build_one(tmp_path):
    result = CliRunner().invoke(main, ["serve", "--out", str(tmp_path / "site")])
    assert result.exit_code == 1
    assert result.output == (
        f"Error: {tmp_path / 'site'}: no built site here "
        f"(make one with 'rulesarchive build --out {tmp_path / 'site'}')\n"
    )


def test_ctrl_c_stops_serving_as_it_stops_every_command(tmp_path):
    (tmp_path / "index.html").write_text("<h1>home</h1>")
    serving = subprocess.Popen(
        [sys.executable, "-m", "rulesarchive", "serve", "--out", str(tmp_path), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert serving.stdout is not None
    assert serving.stdout.readline().startswith("serving ")
    serving.send_signal(signal.SIGINT)
    _out, err = serving.communicate(timeout=30)
    assert serving.returncode == 130
    assert err.strip() == "Aborted!"
