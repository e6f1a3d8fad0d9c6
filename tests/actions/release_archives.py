"""Release archives and a loopback release server, shared by the tests of setup-gatekit's
download path and of the actions that set their tools up themselves.

The server plays GitHub's release downloads (GITHUB_SERVER_URL/OWNER/gatekit/releases/download/
v<version>/<archive>) on 127.0.0.1 only. Archives are real tar.gz files laid out as
scripts/package-release.sh lays them out: gatekit-<version>-<platform>/bin/<tool>, where the
platform is linux-<this machine's arch> unless a test names another (darwin-arm64)."""
import hashlib
import io
import os
import tarfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ARCH = os.uname().machine
PLATFORM = f"linux-{ARCH}"


def archive_name(version: str, platform: str = PLATFORM) -> str:
    return f"gatekit-{version}-{platform}.tar.gz"


def download_path(version: str, platform: str = PLATFORM) -> str:
    """Where the action asks for the archive of `version`, with `repository OWNER/gatekit`."""
    return f"/OWNER/gatekit/releases/download/v{version}/{archive_name(version, platform)}"


def version_scripts(tools, version: str) -> dict:
    """{tool: a script printing `<tool> (gatekit) <version>`}: tools that only report a version."""
    return {t: f'#!/bin/sh\necho "{t} (gatekit) {version}"\n'.encode() for t in tools}


def built_tools(build: Path, tools) -> dict:
    """{tool: the bytes of the built BUILD/tools/<tool>/<tool>}: the real tools."""
    return {t: (Path(build) / "tools" / t / t).read_bytes() for t in tools}


def archive(version: str, tools: dict, compresslevel: int = 9, platform: str = PLATFORM) -> bytes:
    """A release archive of gatekit `version` holding bin/<tool> = tools[tool] (mode 755)."""
    top = f"gatekit-{version}-{platform}"
    data = io.BytesIO()
    entries = [*((f"bin/{name}", body, 0o755) for name, body in tools.items()),
               ("share/doc/gatekit/README.md", b"# gatekit\n", 0o644)]
    with tarfile.open(fileobj=data, mode="w:gz", compresslevel=compresslevel) as tar:
        for name, body, mode in entries:
            info = tarfile.TarInfo(f"{top}/{name}")
            info.size, info.mode = len(body), mode
            tar.addfile(info, io.BytesIO(body))
    return data.getvalue()


def list_release(checksums: Path, version: str, body: bytes, listed: str = None, platform: str = PLATFORM) -> str:
    """Writes an action's checksums.txt naming OWNER/gatekit and listing `body`'s SHA-256 (or
    `listed`) for `version` on `platform`, after a line for another version; returns it."""
    digest = listed or hashlib.sha256(body).hexdigest()
    Path(checksums).write_text(
        f"# test release\nrepository OWNER/gatekit\n0.0.1 {platform} {'0' * 64}\n{version} {platform} {digest}\n")
    return digest


class ReleaseServer:
    """Serves self.files[path] (bytes), 404 for anything else; a path in self.slow sends
    half its body and then stalls until the test ends. Records every request path."""

    def __init__(self):
        self.files, self.slow, self.requests = {}, set(), []
        self.release = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                server.requests.append(self.path)
                body = server.files.get(self.path)
                if body is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if self.path in server.slow:
                    self.wfile.write(body[: len(body) // 2])
                    self.wfile.flush()
                    server.release.wait(30)
                    return
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()
