#!/usr/bin/env python3
"""A stateful stand-in for GitHub's REST API, for tests (Python stdlib only).

Serves the endpoints gatekit uses on 127.0.0.1 with an ephemeral port, over HTTP/1.1 with
keep-alive, with GitHub's pagination (Link headers, per_page <= 100), the 3000-file cap on
PR files, rate-limit headers, conditional requests (an ETag on every 200 to a GET; 304 Not
Modified, not counted against the rate limit, to a matching If-None-Match), and per-route
fault injection. Its response shapes are checked against GitHub's OpenAPI description by
test_openapi_fidelity.py; a replay mode serves recorded real exchanges (@octokit/fixtures).

As a module:
    srv = FakeGitHub(token="t")               # token=None: no auth check
    srv.add_pull("o/r", 1, files=["a.txt"], changed_files=None)
    srv.add_fault("GET", r"/pulls/1/files$", "status", nth=7, status=500)
    url = srv.start()
    ...; srv.requests; srv.connection_count
    srv.stop()

As a script (runs until killed or POST /_fake/shutdown; writes the base URL to F):
    python3 server.py --state STATE.json --port-file F [--faults FAULTS.json] [--token T]
    python3 server.py --replay normalized-fixture.json --port-file F

State and fault formats: tests/github_api/README.md.
"""
import argparse
import copy
import hashlib
import json
import os
import re
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit, unquote

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import github_routes as _routes  # noqa: E402
import github_shapes as shapes  # noqa: E402
from github_routes import PR_FILES_CAP, Reply  # noqa: E402,F401  (re-exported)

FAULT_KINDS = ("status", "delay", "drop", "truncate", "invalid_json", "wrong_content_type",
               "rate_limit", "secondary_rate_limit", "retry_after", "repeat_page")


class Fault:
    """Applies to requests whose method and path match; counted per matching request, so
    nth=7 means "the 7th matching request", then `times` consecutive ones (None: all)."""

    def __init__(self, method, path, kind, times=1, nth=None, **params):
        if kind not in FAULT_KINDS:
            raise ValueError(f"unknown fault kind {kind!r}; known: {', '.join(FAULT_KINDS)}")
        self.method = method.upper()
        self.path = re.compile(path)
        self.kind = kind
        self.times = times
        self.nth = nth or 1
        self.params = params
        self.seen = 0
        self.fired = 0

    def matches(self, method, path):
        return self.method in ("*", method) and self.path.search(path) is not None

    def take(self):
        """Counts one matching request; True when this one gets the fault."""
        self.seen += 1
        if self.seen < self.nth or (self.times is not None and self.fired >= self.times):
            return False
        self.fired += 1
        return True


def etag_matches(if_none_match, etag):
    """RFC 9110's weak comparison of If-None-Match (a list, or *) with an ETag."""
    if not if_none_match:
        return False
    if if_none_match.strip() == "*":
        return True
    opaque = lambda tag: tag.strip().removeprefix("W/")  # noqa: E731
    return any(opaque(t) == opaque(etag) for t in if_none_match.split(","))


class FakeGitHub:
    def __init__(self, token=None, rate_limit=5000, state=None, login="octocat", installation=False):
        self.token = token
        # Who the token acts as: the user of GET /user and of the issues and comments it creates.
        # installation=True: a GitHub App installation token (Actions' GITHUB_TOKEN), which
        # GET /user refuses with 403 "Resource not accessible by integration".
        self.login = login
        self.installation = installation
        self.lock = threading.RLock()
        self.repos = {}
        self.faults = []
        self.requests = []
        self.connection_count = 0       # TCP connections that carried an API request
        self.all_connection_count = 0   # including /_fake control requests
        self.dispatches = []
        self.rate = {"limit": rate_limit, "used": 0, "reset": int(time.time()) + 3600}
        self.replay_exchanges = None
        self.replay_errors = []
        self.base_url = None
        self._server = None
        self._thread = None
        self._next_id = 1000
        self.not_modified = 0           # 304s answered to conditional requests
        self.shutdown_requested = threading.Event()
        if state:
            self.load_state(state)

    # ---- state -------------------------------------------------------------------------

    def _repo(self, repo):
        return self.repos.setdefault(repo, {"pulls": {}, "issues": {}, "statuses": {}, "refs": {}, "runs": {},
                                            "comments": {}, "default_branch": "main", "rules": {},
                                            "protection": {}, "environments": {}, "variables": {}, "files": {},
                                            "activity": []})

    def _id(self):
        self._next_id += 1
        return self._next_id

    def add_pull(self, repo, number, files=(), changed_files=None, head_sha="a" * 40, base_sha="b" * 40,
                 head_ref="feature", base_ref="main", state="open", title=None):
        """files: names or dicts {filename, status, previous_filename, additions, deletions, patch}.
        changed_files: what GitHub reports as the true count (default: len(files))."""
        entries = [{"filename": f} if isinstance(f, str) else dict(f) for f in files]
        with self.lock:
            self._repo(repo)["pulls"][number] = {
                "number": number, "files": entries,
                "changed_files": len(entries) if changed_files is None else changed_files,
                "head_sha": head_sha, "base_sha": base_sha, "head_ref": head_ref, "base_ref": base_ref,
                "state": state, "title": title or f"PR {number}"}

    def add_issue(self, repo, title, body="", labels=(), state="open", number=None, pull_request=False,
                  user="octocat", created_at=None, closed_at=None):
        """user: the login that opened it (as GitHub records it in the issue's `user`)."""
        with self.lock:
            issues = self._repo(repo)["issues"]
            number = number or (max(issues, default=0) + 1)
            issues[number] = {"number": number, "title": title, "body": body, "labels": list(labels),
                              "state": state, "pull_request": pull_request, "comments": [], "user": user,
                              "created_at": created_at, "closed_at": closed_at}
            return number

    def add_status(self, repo, sha, state, context="default", description=None, target_url=None, created_at=None,
                   creator="octocat"):
        """creator: the login that posted it (None: GitHub's null creator, a deleted account)."""
        with self.lock:
            entry = {"id": self._id(), "state": state, "context": context, "description": description,
                     "target_url": target_url, "creator": creator}
            if created_at:
                entry["created_at"] = created_at
            self._repo(repo)["statuses"].setdefault(sha, []).append(entry)
            return entry["id"]

    def add_ref(self, repo, ref, sha):
        """ref without "refs/": "heads/main"."""
        with self.lock:
            self._repo(repo)["refs"][ref] = sha

    def add_activity(self, repo, ref, after, before="0" * 40, activity_type="push", actor="octocat", timestamp=None):
        """One update of a ref, as the repository's activity lists it (GET /activity): `ref`
        full ("refs/heads/main"), `before` and `after` the commits either side."""
        with self.lock:
            self._repo(repo)["activity"].append({
                "id": self._id(), "ref": ref, "before": before, "after": after, "activity_type": activity_type,
                "actor": actor, "timestamp": timestamp or shapes.EPOCH_ISO})

    def add_run(self, repo, head_sha="c" * 40, workflow="ci.yml", head_branch="main", event="push",
                status="completed", conclusion="success", name="CI", jobs=(), artifacts=(), run_id=None,
                created_at=None, head_repository=None):
        """head_repository: the full name a fork's pull request comes from (default: repo);
        jobs: dicts {name, status, conclusion, labels, runner_name, created_at, started_at, completed_at,
        annotations: [{level, message, title}]}; artifacts: dicts {name, size_in_bytes, expired}."""
        with self.lock:
            rid = run_id or self._id()
            self._repo(repo)["runs"][rid] = {
                "id": rid, "workflow": workflow, "head_branch": head_branch, "head_sha": head_sha,
                "event": event, "status": status, "conclusion": conclusion, "name": name,
                "created_at": created_at or shapes.EPOCH_ISO, "head_repository": head_repository or repo,
                "jobs": [dict(j, id=j.get("id") or self._id()) for j in jobs],
                "artifacts": [dict(a, id=a.get("id") or self._id()) for a in artifacts]}
            return rid

    def set_default_branch(self, repo, branch):
        with self.lock:
            self._repo(repo)["default_branch"] = branch

    def set_rules(self, repo, branch, rules):
        """The rules of active rulesets for `branch` (GET rules/branches/{branch}): dicts {type,
        checks: [{context, integration_id}], ruleset_id, ruleset_source, ruleset_source_type}."""
        with self.lock:
            self._repo(repo)["rules"][branch] = [dict(r) for r in rules]

    def set_protection(self, repo, branch, checks=None, strict=True):
        """Classic branch protection of `branch`; checks: [{context, app_id}] (None: no status checks)."""
        with self.lock:
            self._repo(repo)["protection"][branch] = {"checks": checks, "strict": strict}

    def add_environment(self, repo, name, branches="all", policies=(), variables=None, secrets=()):
        """branches: all | protected | custom (then `policies`: [{name, type}]); variables: {name: value};
        secrets: names."""
        with self.lock:
            self._repo(repo)["environments"][name] = {
                "branches": branches, "policies": [dict(p) for p in policies],
                "variables": dict(variables or {}), "secrets": list(secrets)}

    def set_variable(self, repo, name, value):
        """A repository variable (vars.NAME)."""
        with self.lock:
            self._repo(repo)["variables"][name] = value

    def add_file(self, repo, path, text):
        """A file on the default branch, served by the contents API (folders are implied)."""
        with self.lock:
            self._repo(repo)["files"][path] = text

    def add_fault(self, method, path_regex, kind, times=1, nth=None, **params):
        with self.lock:
            self.faults.append(Fault(method, path_regex, kind, times, nth, **params))

    def load_state(self, state):
        """The JSON state format documented in README.md."""
        if "rate_limit" in state:
            self.rate.update(state["rate_limit"])
        if "token" in state:
            self.token = state["token"]
        if "login" in state:
            self.login = state["login"]
        if "installation" in state:
            self.installation = bool(state["installation"])
        for repo, content in state.get("repos", {}).items():
            self._repo(repo)
            for pr in content.get("pulls", []):
                pr = dict(pr)
                files = pr.pop("files", [])
                if isinstance(files, dict):  # {"count": 3500, "pattern": "src/f{i}.txt"}
                    files = [files.get("pattern", "file{i}.txt").format(i=i) for i in range(files["count"])]
                self.add_pull(repo, pr.pop("number"), files=files, **pr)
            for it in content.get("issues", []):
                it = dict(it)
                self.add_issue(repo, it.pop("title"), **it)
            for sha, entries in content.get("statuses", {}).items():
                for s in entries:
                    self.add_status(repo, sha, **s)
            for ref, sha in content.get("refs", {}).items():
                self.add_ref(repo, ref, sha)
            if "default_branch" in content:
                self.set_default_branch(repo, content["default_branch"])
            for branch, rules in content.get("rules", {}).items():
                self.set_rules(repo, branch, rules)
            for branch, protection in content.get("protection", {}).items():
                self.set_protection(repo, branch, **protection)
            for name, env in content.get("environments", {}).items():
                self.add_environment(repo, name, **env)
            for name, value in content.get("variables", {}).items():
                self.set_variable(repo, name, value)
            for path, text in content.get("files", {}).items():
                self.add_file(repo, path, text)
            for run in content.get("runs", []):
                run = dict(run)
                if "id" in run:
                    run["run_id"] = run.pop("id")
                self.add_run(repo, **run)
            for update in content.get("activity", []):
                self.add_activity(repo, **update)

    def load_faults(self, faults):
        for f in faults:
            f = dict(f)
            self.add_fault(f.pop("method", "*"), f.pop("path"), f.pop("kind"), f.pop("times", 1), f.pop("nth", None), **f)

    def replay(self, exchanges):
        """Serves recorded exchanges (an @octokit/fixtures normalized-fixture.json list) in order."""
        self.replay_exchanges = list(exchanges)

    # ---- lifecycle ---------------------------------------------------------------------

    def start(self, host="127.0.0.1", port=0):
        handler = type("Handler", (_Handler,), {"fake": self})
        self._server = ThreadingHTTPServer((host, port), handler)
        self._server.daemon_threads = True
        self.base_url = f"http://{host}:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self.base_url

    def stop(self):
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    def stats(self):
        with self.lock:
            return {"not_modified": self.not_modified, "connection_count": self.connection_count,
                    "all_connection_count": self.all_connection_count,
                    "requests": copy.deepcopy(self.requests), "dispatches": copy.deepcopy(self.dispatches),
                    "replay_errors": list(self.replay_errors),
                    "replay_left": len(self.replay_exchanges) if self.replay_exchanges is not None else None,
                    "faults": [{"kind": f.kind, "seen": f.seen, "fired": f.fired} for f in self.faults]}

    # ---- request handling --------------------------------------------------------------

    def rate_headers(self, resource="core", count=True):
        """count=False: the answer does not count against the limit (a 304 to a conditional request)."""
        with self.lock:
            if count:
                self.rate["used"] += 1
            remaining = max(self.rate["limit"] - self.rate["used"], 0)
            return {"x-ratelimit-limit": str(self.rate["limit"]), "x-ratelimit-remaining": str(remaining),
                    "x-ratelimit-reset": str(self.rate["reset"]), "x-ratelimit-used": str(self.rate["used"]),
                    "x-ratelimit-resource": resource}

    def pick_fault(self, method, path):
        with self.lock:
            chosen = None
            for f in self.faults:
                if f.matches(method, path) and f.take() and chosen is None:
                    chosen = f
            return chosen

    def paginate(self, items, query, path):
        per_page = min(max(int(query.get("per_page", 30)), 1), 100)
        page = max(int(query.get("page", 1)), 1)
        last = max((len(items) + per_page - 1) // per_page, 1)
        chunk = items[(page - 1) * per_page: page * per_page]

        def url(n):
            q = dict(query, page=str(n))
            return f"<{self.base_url}{path}?{urlencode(q)}>"
        links = []
        if page > 1:
            links.append(f'{url(page - 1)}; rel="prev"')
        if page < last:
            links += [f'{url(page + 1)}; rel="next"', f'{url(last)}; rel="last"']
        if page > 1:
            links.append(f'{url(1)}; rel="first"')
        return chunk, ({"link": ", ".join(links)} if links else {})

    def route(self, method, path, query, body):
        api = self.base_url
        if path == "/user":
            with self.lock:
                return _routes.authenticated_user(self, api, method)
        m = re.fullmatch(r"/repos/([^/]+/[^/]+)(/.*)?", path)
        if not m:
            return Reply(404, shapes.error("Not Found", 404))
        repo, rest = unquote(m.group(1)), m.group(2) or ""
        with self.lock:
            if repo not in self.repos:
                return Reply(404, shapes.error("Not Found", 404))
            r = self.repos[repo]
            return _routes.dispatch(self, api, repo, r, method, rest, query, body, path)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    fake = None  # set per server by FakeGitHub.start

    def setup(self):
        super().setup()
        self.counted_api = False
        with self.fake.lock:
            self.fake.all_connection_count += 1

    def log_message(self, *args):  # quiet: the request log is in fake.requests
        pass

    def do_GET(self):
        self.handle_any("GET")

    def do_POST(self):
        self.handle_any("POST")

    def do_PATCH(self):
        self.handle_any("PATCH")

    def do_PUT(self):
        self.handle_any("PUT")

    def do_DELETE(self):
        self.handle_any("DELETE")

    def handle_any(self, method):
        try:
            self.handle_api(method)
        except Exception as e:  # a server bug answers 418 (never retried) instead of a dropped connection
            self.send_reply(Reply(418, {"message": f"fake server error: {type(e).__name__}: {e}"}))

    def handle_api(self, method):
        fake = self.fake
        length = int(self.headers.get("content-length") or 0)
        raw_body = self.rfile.read(length) if length else b""
        split = urlsplit(self.path)
        path = split.path
        query = {k: v[-1] for k, v in parse_qs(split.query, keep_blank_values=True).items()}
        if path.startswith("/_fake/"):
            return self.control(method, path, raw_body)
        if not self.counted_api:
            self.counted_api = True
            with fake.lock:
                fake.connection_count += 1
        headers = {k.lower(): v for k, v in self.headers.items()}
        if "authorization" in headers:  # the token itself is never logged
            headers["authorization"] = headers["authorization"].split(" ")[0] + " [redacted]"
        try:
            body = json.loads(raw_body) if raw_body else None
        except ValueError:
            body = raw_body.decode(errors="replace")
        with fake.lock:
            fake.requests.append({"method": method, "path": path, "query": query, "headers": headers,
                                  "body": body, "connection": fake.all_connection_count})

        if fake.replay_exchanges is not None:
            return self.send_reply(self.replay_next(method, path, query, body))
        fault = fake.pick_fault(method, path)
        if fault is not None:
            reply = self.apply_fault(fault, method, path, query, body)
            if reply is None:
                return None
            return self.send_reply(reply)
        if fake.token is not None:
            auth = self.headers.get("authorization", "")
            if auth != "Bearer " + fake.token:
                return self.send_reply(Reply(401, shapes.error("Bad credentials", 401)))
        if body is not None and not isinstance(body, (dict, list)):
            return self.send_reply(Reply(400, shapes.error("Problems parsing JSON", 400)))
        try:
            reply = fake.route(method, path, query, body)
        except (ValueError, KeyError, TypeError) as e:
            reply = Reply(422, shapes.error(f"Invalid request: {e}", 422))
        resource = "search" if path.startswith("/search") else "core"
        if method == "GET" and reply.status == 200:
            # Conditional requests, as GitHub answers them: every 200 carries an ETag; a GET whose
            # If-None-Match names the current one gets 304 Not Modified without a body, which
            # does not count against the primary rate limit (docs.github.com: "Use conditional
            # requests if appropriate").
            data = reply.raw if reply.raw is not None else json.dumps(reply.body).encode()
            etag = 'W/"' + hashlib.sha256(data).hexdigest()[:40] + '"'
            if etag_matches(self.headers.get("if-none-match"), etag):
                with fake.lock:
                    fake.not_modified += 1
                return self.send_reply(Reply(304, None, {**fake.rate_headers(resource, count=False), "etag": etag}))
            reply.headers["etag"] = etag
        reply.headers = {**fake.rate_headers(resource), **reply.headers}
        self.send_reply(reply)

    def apply_fault(self, fault, method, path, query, body):
        p = fault.params
        kind = fault.kind
        if kind == "drop":
            self.close_connection = True
            return None
        if kind == "delay":
            time.sleep(float(p.get("seconds", 1)))
            try:
                reply = self.fake.route(method, path, query, body)
            except (ValueError, KeyError, TypeError) as e:
                reply = Reply(422, shapes.error(str(e), 422))
            return reply
        if kind == "status":
            status = int(p.get("status", 500))
            if "raw" in p:
                return Reply(status, raw=p["raw"].encode(), headers=p.get("headers"),
                             content_type=p.get("content_type", "text/html"))
            return Reply(status, p.get("body", shapes.error(p.get("message", "Server Error"), status)), p.get("headers"))
        if kind == "truncate":
            reply = self.fake.route(method, path, query, body)
            reply.truncate = True
            return reply
        if kind == "repeat_page":
            # The items of another page (`page`, default 1) under this page's Link header: a
            # listing read by offset while it changed (or a proxy's stale page) repeats items.
            shown = self.fake.route(method, path, dict(query, page=str(p.get("page", 1))), body)
            asked = self.fake.route(method, path, query, body)
            shown.headers = {**shown.headers, "link": asked.headers.get("link", "")}
            if not shown.headers["link"]:
                del shown.headers["link"]
            return shown
        if kind == "invalid_json":
            return Reply(200, raw=b'{"message": "truncated', content_type="application/json; charset=utf-8")
        if kind == "wrong_content_type":
            return Reply(200, raw=b"<html><body>Login to the proxy</body></html>", content_type="text/html")
        if kind == "rate_limit":
            reset = int(p.get("reset", int(time.time()) + int(p.get("reset_in", 60))))
            headers = {"x-ratelimit-limit": "5000", "x-ratelimit-remaining": "0", "x-ratelimit-reset": str(reset),
                       "x-ratelimit-used": "5000", "x-ratelimit-resource": "core"}
            return Reply(int(p.get("status", 403)), shapes.error(
                "API rate limit exceeded for installation ID 1.", 403,
                "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"), headers)
        if kind == "secondary_rate_limit":
            headers = {"retry-after": str(p["retry_after"])} if "retry_after" in p else {}
            return Reply(403, shapes.error(
                "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.", 403,
                "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"),
                headers)
        if kind == "retry_after":
            return Reply(429, shapes.error("Too many requests", 429), {"retry-after": str(p.get("seconds", 1))})
        raise AssertionError(kind)

    def replay_next(self, method, path, query, body):
        """The next recorded exchange, when method, path, the recorded query parameters and
        the recorded JSON body match; else a 418 (not retried by clients) and an entry in replay_errors."""
        fake = self.fake
        with fake.lock:
            if not fake.replay_exchanges:
                fake.replay_errors.append(f"unexpected request {method} {path}: no recorded exchange left")
                return Reply(418, {"message": "replay: no recorded exchange left"})
            ex = fake.replay_exchanges[0]
            want = urlsplit(ex["path"])
            want_query = {k: v[-1] for k, v in parse_qs(want.query).items()}
            missing = {k: v for k, v in want_query.items() if query.get(k) != v}
            want_body = ex.get("body")
            body_differs = isinstance(want_body, (dict, list)) and want_body != body
            if ex["method"].upper() != method or want.path != path or missing or body_differs:
                fake.replay_errors.append(f"expected {ex['method'].upper()} {ex['path']} {want_body or ''}, "
                                          f"got {method} {path} {query} {body or ''}")
                return Reply(418, {"message": "replay mismatch"})
            fake.replay_exchanges.pop(0)
        rewrite = lambda text: str(text).replace("https://api.github.com", fake.base_url)  # noqa: E731
        skip = {"content-length", "transfer-encoding", "connection", "content-encoding", "content-type"}
        headers = {k: rewrite(v) for k, v in ex.get("headers", {}).items() if k.lower() not in skip}
        content_type = ex.get("headers", {}).get("content-type", "application/json; charset=utf-8")
        response = ex.get("response")
        raw = b"" if response in (None, "") else rewrite(json.dumps(response)).encode()
        return Reply(int(ex["status"]), raw=raw, headers=headers, content_type=content_type)

    def control(self, method, path, raw_body):
        fake = self.fake
        if path == "/_fake/stats":
            return self.send_reply(Reply(200, fake.stats()))
        if path == "/_fake/faults" and method == "POST":
            data = json.loads(raw_body or b"[]")
            fake.load_faults(data if isinstance(data, list) else [data])
            return self.send_reply(Reply(201, {"faults": len(fake.faults)}))
        if path == "/_fake/state" and method == "POST":
            fake.load_state(json.loads(raw_body or b"{}"))
            return self.send_reply(Reply(201, {}))
        if path == "/_fake/shutdown" and method == "POST":
            self.send_reply(Reply(200, {}))
            fake.shutdown_requested.set()
            return None
        return self.send_reply(Reply(404, {"message": "unknown control path"}))

    def send_reply(self, reply):
        if reply.raw is not None:
            data = reply.raw
        elif reply.body is None:
            data = b""
        else:
            data = json.dumps(reply.body).encode()
        truncate = reply.truncate
        try:
            self.send_response(reply.status)
            if data or reply.status not in (204, 304):
                self.send_header("content-type", reply.content_type)
            for k, v in reply.headers.items():
                self.send_header(k, v)
            self.send_header("content-length", str(len(data)))
            if truncate:
                self.send_header("connection", "close")
            self.end_headers()
            self.wfile.write(data[: len(data) // 2] if truncate else data)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        if truncate:
            self.close_connection = True


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--state", help="state JSON (README.md)")
    parser.add_argument("--faults", help="faults JSON: a list of fault objects (README.md)")
    parser.add_argument("--replay", help="an @octokit/fixtures normalized-fixture.json to replay in order")
    parser.add_argument("--token", help="require Authorization: Bearer TOKEN")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--port-file", required=True, help="the base URL is written here once listening")
    opts = parser.parse_args(argv)
    fake = FakeGitHub(token=opts.token)
    if opts.state:
        with open(opts.state) as f:
            fake.load_state(json.load(f))
    if opts.faults:
        with open(opts.faults) as f:
            fake.load_faults(json.load(f))
    if opts.replay:
        with open(opts.replay) as f:
            fake.replay(json.load(f))
    url = fake.start(port=opts.port)
    tmp = opts.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(url + "\n")
    os.replace(tmp, opts.port_file)  # readers never see a half-written file
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: fake.shutdown_requested.set())
    fake.shutdown_requested.wait()
    fake.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
