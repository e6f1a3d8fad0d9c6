"""The test server's own contract: fault counting (nth / times), pagination and the
3000-file cap, auth, connection counting, and script mode (--state, --faults, --port-file)."""
import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from server import FakeGitHub  # noqa: E402


def get(url, token=None, headers=None):
    req = urllib.request.Request(url, headers={**({"Authorization": f"Bearer {token}"} if token else {}),
                                               **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def test_fault_on_the_nth_matching_request_only():
    with FakeGitHub() as srv:
        srv.add_pull("o/r", 1, files=["a"])
        srv.add_fault("GET", r"/pulls/1$", "status", nth=3, status=500)
        codes = [get(srv.base_url + "/repos/o/r/pulls/1")[0] for _ in range(4)]
        assert codes == [200, 200, 500, 200]


def test_fault_times_none_is_permanent_and_method_filters():
    with FakeGitHub() as srv:
        srv.add_pull("o/r", 1, files=["a"])
        srv.add_fault("POST", r"/pulls/1$", "status", times=None, status=502)
        srv.add_fault("GET", r"/pulls/1$", "status", times=2, status=503)
        codes = [get(srv.base_url + "/repos/o/r/pulls/1")[0] for _ in range(3)]
        assert codes == [503, 503, 200]


def test_pagination_links_and_the_3000_file_cap():
    with FakeGitHub() as srv:
        srv.add_pull("o/r", 1, files=[f"f{i}" for i in range(3500)])
        status, headers, body = get(srv.base_url + "/repos/o/r/pulls/1/files?per_page=100")
        assert status == 200 and len(json.loads(body)) == 100
        assert headers["link"] == (f'<{srv.base_url}/repos/o/r/pulls/1/files?per_page=100&page=2>; rel="next", '
                                   f'<{srv.base_url}/repos/o/r/pulls/1/files?per_page=100&page=30>; rel="last"')
        status, headers, body = get(srv.base_url + "/repos/o/r/pulls/1/files?per_page=100&page=30")
        assert [f["filename"] for f in json.loads(body)][-1] == "f2999"
        assert 'rel="next"' not in headers["link"]
        assert json.loads(get(srv.base_url + "/repos/o/r/pulls/1")[2])["changed_files"] == 3500
        assert headers["x-ratelimit-remaining"] == "4998"  # the second request
        assert headers["x-ratelimit-resource"] == "core"


def test_repeat_page_serves_another_pages_items_under_the_asked_pages_links():
    with FakeGitHub() as srv:
        srv.add_pull("o/r", 1, files=[f"f{i}" for i in range(250)])
        srv.add_fault("GET", r"/pulls/1/files$", "repeat_page", nth=2, times=None)
        url = srv.base_url + "/repos/o/r/pulls/1/files?per_page=100"
        pages = [get(f"{url}&page={n}") for n in (1, 2, 3)]
        names = [[f["filename"] for f in json.loads(body)] for _, _, body in pages]
        assert names[0] == names[1] == names[2] == [f"f{i}" for i in range(100)]
        assert f'<{url}&page=3>; rel="next"' in pages[1][1]["link"]  # page 2's links, page 1's items
        assert 'rel="next"' not in pages[2][1]["link"]


def test_auth_is_checked_when_a_token_is_set_and_never_logged():
    with FakeGitHub(token="sekrit") as srv:
        srv.add_pull("o/r", 1)
        assert get(srv.base_url + "/repos/o/r/pulls/1")[0] == 401
        assert get(srv.base_url + "/repos/o/r/pulls/1", token="sekrit")[0] == 200
        assert "sekrit" not in json.dumps(srv.requests)
        assert srv.connection_count == 2  # urllib opens one connection per request


def test_script_mode_with_state_faults_and_port_file(tmp_path):
    (tmp_path / "state.json").write_text(json.dumps({"repos": {"o/r": {"pulls": [{"number": 5, "files": ["x"]}]}}}))
    (tmp_path / "faults.json").write_text(json.dumps([{"method": "GET", "path": "/pulls/5$", "kind": "status",
                                                       "status": 502}]))
    port_file = tmp_path / "url"
    proc = subprocess.Popen([sys.executable, str(HERE / "server.py"), "--state", str(tmp_path / "state.json"),
                             "--faults", str(tmp_path / "faults.json"), "--port-file", str(port_file)])
    try:
        for _ in range(500):
            if port_file.exists():
                break
            time.sleep(0.01)
        url = port_file.read_text().strip()
        assert url.startswith("http://127.0.0.1:")
        assert get(url + "/repos/o/r/pulls/5")[0] == 502
        assert get(url + "/repos/o/r/pulls/5")[0] == 200
        stats = json.loads(get(url + "/_fake/stats")[2])
        assert [r["path"] for r in stats["requests"]] == ["/repos/o/r/pulls/5"] * 2
        urllib.request.urlopen(urllib.request.Request(url + "/_fake/shutdown", method="POST", data=b""), timeout=10)
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()


def test_conditional_requests_answer_304_without_counting_against_the_rate_limit():
    with FakeGitHub() as srv:
        srv.add_issue("o/r", "one")
        url = srv.base_url + "/repos/o/r/issues"
        status, headers, body = get(url)
        etag = headers["etag"]
        assert status == 200 and etag.startswith('W/"') and json.loads(body)[0]["title"] == "one"
        used = int(headers["x-ratelimit-used"])
        for match in (etag, etag.removeprefix("W/"), f'"other", {etag}', "*"):
            status, headers, body = get(url, headers={"If-None-Match": match})
            assert (status, body, headers["etag"]) == (304, b"", etag), match
            assert int(headers["x-ratelimit-used"]) == used  # a 304 is free
        assert srv.stats()["not_modified"] == 4
        # Another ETag, or a changed answer: a 200 with the new ETag, counted.
        assert get(url, headers={"If-None-Match": '"other"'})[0] == 200
        srv.add_issue("o/r", "two")
        status, headers, _ = get(url, headers={"If-None-Match": etag})
        assert status == 200 and headers["etag"] != etag
        assert int(headers["x-ratelimit-used"]) == used + 2
