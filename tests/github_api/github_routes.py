"""The endpoints FakeGitHub serves, one small function each; called with the server lock held.

Each mirrors the GitHub REST behaviour gatekit depends on (status codes, pagination,
filters, validation errors); response bodies come from github_shapes.
"""
import re
from urllib.parse import unquote

import github_shapes as shapes

STATUS_STATES = ("error", "failure", "pending", "success")
PR_FILES_CAP = 3000  # GitHub lists at most this many files of a pull request


class Reply:
    """One HTTP answer: a JSON body, or raw bytes (which win) with a content type."""

    def __init__(self, status, body=None, headers=None, raw=None, content_type="application/json; charset=utf-8"):
        self.status = status
        self.body = body
        self.raw = raw
        self.headers = dict(headers or {})
        self.content_type = content_type
        self.truncate = False  # send half the body, then close the connection


_reply = Reply


def _not_found():
    return _reply(404, shapes.error("Not Found", 404))


def _invalid(resource, field, code="missing_field"):
    return _reply(422, shapes.error("Validation Failed", 422, "https://docs.github.com/rest",
                                    [{"resource": resource, "field": field, "code": code}]))


def get_pull(fake, api, repo, r, m, query, body):
    pr = r["pulls"].get(int(m.group(1)))
    return _reply(200, shapes.pull_request(api, repo, pr)) if pr else _not_found()


def list_pull_files(fake, api, repo, r, m, query, body, path):
    pr = r["pulls"].get(int(m.group(1)))
    if not pr:
        return _not_found()
    # GitHub lists at most 3000 files; changed_files on the PR still reports the true count.
    files = pr["files"][:PR_FILES_CAP]
    chunk, headers = fake.paginate(files, query, path)
    return _reply(200, [shapes.diff_entry(api, repo, pr["head_sha"], f) for f in chunk], headers)


def list_issues(fake, api, repo, r, m, query, body, path):
    state = query.get("state", "open")
    if state not in ("open", "closed", "all"):
        return _invalid("Issue", "state", "invalid")
    wanted = [name for name in query.get("labels", "").split(",") if name]
    items = [it for it in sorted(r["issues"].values(), key=lambda it: -it["number"])
             if (state == "all" or it["state"] == state) and all(name in it["labels"] for name in wanted)]
    chunk, headers = fake.paginate(items, query, path)
    return _reply(200, [shapes.issue(api, repo, it) for it in chunk], headers)


def create_issue(fake, api, repo, r, m, query, body):
    if not isinstance(body, dict) or not isinstance(body.get("title"), str) or not body["title"]:
        return _invalid("Issue", "title")
    number = fake.add_issue(repo, body["title"], body.get("body") or "", body.get("labels") or [], user=fake.login)
    return _reply(201, shapes.issue(api, repo, r["issues"][number]),
                  {"location": f"{api}/repos/{repo}/issues/{number}"})


def get_issue(fake, api, repo, r, m, query, body):
    it = r["issues"].get(int(m.group(1)))
    return _reply(200, shapes.issue(api, repo, it)) if it else _not_found()


def update_issue(fake, api, repo, r, m, query, body):
    it = r["issues"].get(int(m.group(1)))
    if not it:
        return _not_found()
    if not isinstance(body, dict):
        return _invalid("Issue", "body", "invalid")
    if "state" in body and body["state"] not in ("open", "closed"):
        return _invalid("Issue", "state", "invalid")
    for key in ("title", "body", "state"):
        if key in body:
            it[key] = body[key]
    if "labels" in body:
        it["labels"] = [lb if isinstance(lb, str) else lb["name"] for lb in body["labels"]]
    return _reply(200, shapes.issue(api, repo, it))


def add_comment(fake, api, repo, r, m, query, body):
    it = r["issues"].get(int(m.group(1)))
    if not it:
        return _not_found()
    if not isinstance(body, dict) or not isinstance(body.get("body"), str):
        return _invalid("IssueComment", "body")
    cid = fake._id()
    it["comments"].append({"id": cid, "body": body["body"], "user": fake.login})
    return _reply(201, shapes.issue_comment(api, repo, it["number"], cid, body["body"], fake.login))


def list_comments(fake, api, repo, r, m, query, body, path):
    it = r["issues"].get(int(m.group(1)))
    if not it:
        return _not_found()
    chunk, headers = fake.paginate(it["comments"], query, path)
    return _reply(200, [shapes.issue_comment(api, repo, it["number"], c["id"], c["body"], c.get("user") or "octocat")
                        for c in chunk], headers)


def add_labels(fake, api, repo, r, m, query, body):
    it = r["issues"].get(int(m.group(1)))
    if not it:
        return _not_found()
    names = body.get("labels") if isinstance(body, dict) else body
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return _invalid("Label", "labels", "invalid")
    for name in names:
        if name not in it["labels"]:
            it["labels"].append(name)
    return _reply(200, [shapes.label(api, repo, name) for name in it["labels"]])


def create_status(fake, api, repo, r, m, query, body):
    if not isinstance(body, dict) or body.get("state") not in STATUS_STATES:
        return _invalid("Status", "state", "invalid")
    sha = m.group(1)
    sid = fake.add_status(repo, sha, body["state"], body.get("context") or "default", body.get("description"),
                          body.get("target_url"), creator=fake.login)  # the token's account posts it
    entry = r["statuses"][sha][-1]
    assert entry["id"] == sid
    return _reply(201, shapes.status(api, repo, sha, entry), {"location": f"{api}/repos/{repo}/statuses/{sha}"})


def list_statuses(fake, api, repo, r, m, query, body, path):
    ref = m.group(1)
    sha = r["refs"].get("heads/" + ref, ref)
    entries = list(reversed(r["statuses"].get(sha, [])))  # newest first, as GitHub lists them
    chunk, headers = fake.paginate(entries, query, path)
    return _reply(200, [shapes.status(api, repo, sha, s) for s in chunk], headers)


def get_ref(fake, api, repo, r, m, query, body):
    ref = m.group(1)
    sha = r["refs"].get(ref)
    return _reply(200, shapes.git_ref(api, repo, ref, sha)) if sha else _not_found()


def list_activity(fake, api, repo, r, m, query, body, path):
    """Newest first. `ref` as GitHub takes it: refs/heads/BRANCH, or BRANCH for refs/heads/BRANCH."""
    entries = list(reversed(r["activity"]))
    if query.get("ref"):
        ref = query["ref"] if query["ref"].startswith("refs/") else "refs/heads/" + query["ref"]
        entries = [e for e in entries if e["ref"] == ref]
    if query.get("activity_type"):
        entries = [e for e in entries if e["activity_type"] == query["activity_type"]]
    chunk, headers = fake.paginate(entries, query, path)
    return _reply(200, [shapes.activity(api, repo, e) for e in chunk], headers)


def list_runs(fake, api, repo, r, m, query, body, path):
    workflow = m.group(1) if m.lastindex else None
    runs = sorted(r["runs"].values(), key=lambda run: -run["id"])
    if workflow is not None:
        if not any(run["workflow"] == workflow or str(shapes.stable_id("workflow", repo, run["workflow"])) == workflow
                   for run in runs):
            return _not_found()
        runs = [run for run in runs if run["workflow"] == workflow
                or str(shapes.stable_id("workflow", repo, run["workflow"])) == workflow]
    for key in ("branch", "event"):
        if query.get(key):
            field = "head_branch" if key == "branch" else key
            runs = [run for run in runs if run[field] == query[key]]
    if query.get("head_sha"):
        runs = [run for run in runs if run["head_sha"] == query["head_sha"]]
    if query.get("status"):  # a status or a conclusion, as GitHub accepts both
        runs = [run for run in runs if query["status"] in (run["status"], run["conclusion"])]
    if query.get("created"):
        created = _created_filter(query["created"])
        if created is None:
            return _invalid("WorkflowRun", "created", "invalid")
        runs = [run for run in runs if created(run["created_at"])]
    total = len(runs)
    # GitHub answers at most 1,000 runs for a search (actor, branch, check_suite_id, created,
    # event, head_sha, status) while total_count still counts them all.
    if any(query.get(k) for k in ("actor", "branch", "check_suite_id", "created", "event", "head_sha", "status")):
        runs = runs[:1000]
    chunk, headers = fake.paginate(runs, query, path)
    return _reply(200, {"total_count": total, "workflow_runs": [shapes.workflow_run(api, repo, x) for x in chunk]},
                  headers)


def _created_filter(text):
    """GitHub's date search syntax for `created`: A..B (inclusive), >=A, <=A, >A, <A, or A; the
    bounds are ISO 8601 timestamps in UTC (2026-11-01T00:00:00Z) or days (2026-11-01)."""
    def norm(bound, upper):
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", bound):
            return bound + ("T23:59:59Z" if upper else "T00:00:00Z")
        return bound if re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z", bound) else None
    if ".." in text:
        low, high = text.split("..", 1)
        low, high = norm(low, False), norm(high, True)
        return None if low is None or high is None else (lambda t: low <= t <= high)
    for op, fn in ((">=", lambda t, b: t >= b), ("<=", lambda t, b: t <= b), (">", lambda t, b: t > b),
                   ("<", lambda t, b: t < b)):
        if text.startswith(op):
            bound = norm(text[len(op):], op.startswith("<"))
            return None if bound is None else (lambda t, b=bound, f=fn: f(t, b))
    low, high = norm(text, False), norm(text, True)
    return None if low is None else (lambda t: low <= t <= high)


def get_run(fake, api, repo, r, m, query, body):
    run = r["runs"].get(int(m.group(1)))
    return _reply(200, shapes.workflow_run(api, repo, run)) if run else _not_found()


def list_jobs(fake, api, repo, r, m, query, body, path):
    run = r["runs"].get(int(m.group(1)))
    if not run:
        return _not_found()
    chunk, headers = fake.paginate(run["jobs"], query, path)
    return _reply(200, {"total_count": len(run["jobs"]), "jobs": [shapes.job(api, repo, run, j) for j in chunk]},
                  headers)


def list_artifacts(fake, api, repo, r, m, query, body, path):
    run = r["runs"].get(int(m.group(1)))
    if not run:
        return _not_found()
    chunk, headers = fake.paginate(run["artifacts"], query, path)
    return _reply(200, {"total_count": len(run["artifacts"]),
                        "artifacts": [shapes.artifact(api, repo, a) for a in chunk]}, headers)


def list_annotations(fake, api, repo, r, m, query, body, path):
    """A check run's annotations; a job's check run has the job's id."""
    jid = int(m.group(1))
    job = next((j for run in r["runs"].values() for j in run["jobs"] if j["id"] == jid), None)
    if job is None:
        return _not_found()
    chunk, headers = fake.paginate(job.get("annotations", []), query, path)
    return _reply(200, [shapes.annotation(api, repo, a) for a in chunk], headers)


def dispatch_workflow(fake, api, repo, r, m, query, body):
    workflow = m.group(1)
    if not any(run["workflow"] == workflow for run in r["runs"].values()) and workflow not in r.get("workflows", ()):
        return _not_found()
    if not isinstance(body, dict) or not isinstance(body.get("ref"), str):
        return _invalid("Workflow", "ref")
    inputs = body.get("inputs") or {}
    if not isinstance(inputs, dict) or len(inputs) > 10:
        return _invalid("Workflow", "inputs", "invalid")
    fake.dispatches.append({"repo": repo, "workflow": workflow, "ref": body["ref"], "inputs": inputs})
    return _reply(204)


def get_repo(fake, api, repo, r, m, query, body):
    return _reply(200, shapes.full_repository(api, repo, r["default_branch"]))


def list_branch_rules(fake, api, repo, r, m, query, body, path):
    """The rules of active rulesets that apply to a branch (the branch need not exist)."""
    rules = [shapes.branch_rule(rule) for rule in r["rules"].get(unquote(m.group(1)), [])]
    chunk, headers = fake.paginate(rules, query, path)
    return _reply(200, chunk, headers)


def get_protection(fake, api, repo, r, m, query, body):
    branch = unquote(m.group(1))
    protection = r["protection"].get(branch)
    if protection is None:
        return _reply(404, shapes.error("Branch not protected", 404,
                                        "https://docs.github.com/rest/branches/branch-protection#get-branch-protection"))
    return _reply(200, shapes.branch_protection(api, repo, branch, protection))


def _environment(r, m):
    return r["environments"].get(unquote(m.group(1)))


def get_environment(fake, api, repo, r, m, query, body):
    env = _environment(r, m)
    return _reply(200, shapes.environment(api, repo, m.group(1), env)) if env is not None else _not_found()


def list_branch_policies(fake, api, repo, r, m, query, body, path):
    env = _environment(r, m)
    if env is None:
        return _not_found()
    policies = env["policies"] if env["branches"] == "custom" else []
    chunk, headers = fake.paginate(policies, query, path)
    return _reply(200, {"total_count": len(policies),
                        "branch_policies": [shapes.deployment_branch_policy(repo, m.group(1), p) for p in chunk]},
                  headers)


def list_env_variables(fake, api, repo, r, m, query, body, path):
    env = _environment(r, m)
    if env is None:
        return _not_found()
    items = sorted(env["variables"].items())
    chunk, headers = fake.paginate(items, query, path)
    return _reply(200, {"total_count": len(items), "variables": [shapes.actions_variable(k, v) for k, v in chunk]},
                  headers)


def list_env_secrets(fake, api, repo, r, m, query, body, path):
    env = _environment(r, m)
    if env is None:
        return _not_found()
    names = sorted(env["secrets"])
    chunk, headers = fake.paginate(names, query, path)
    return _reply(200, {"total_count": len(names), "secrets": [shapes.actions_secret(n) for n in chunk]}, headers)


def get_variable(fake, api, repo, r, m, query, body):
    name = unquote(m.group(1))
    value = r["variables"].get(name)
    return _reply(200, shapes.actions_variable(name, value)) if value is not None else _not_found()


def get_contents(fake, api, repo, r, m, query, body):
    """A file's content or a folder's entries, on the default branch (the only ref it knows)."""
    ref = query.get("ref") or r["default_branch"]
    if ref not in (r["default_branch"], "refs/heads/" + r["default_branch"]):
        return _reply(404, shapes.error(f"No commit found for the ref {ref}", 404,
                                        "https://docs.github.com/rest/repos/contents#get-repository-content"))
    path = unquote(m.group(1)).strip("/")
    if path in r["files"]:
        return _reply(200, shapes.content_file(api, repo, path, ref, r["files"][path]))
    prefix = path + "/" if path else ""
    entries = {}
    for name in r["files"]:
        if name.startswith(prefix):
            first, _, rest = name[len(prefix):].partition("/")
            entries[first] = ("dir", 0) if rest else ("file", len(r["files"][name].encode()))
    if not entries:
        return _not_found()
    return _reply(200, [shapes.content_entry(api, repo, prefix + name, ref, kind, size)
                        for name, (kind, size) in sorted(entries.items())])


# (method, pattern on the path after /repos/o/r, handler, paginated)
ROUTES = [
    ("GET", r"", get_repo, False),
    ("GET", r"/rules/branches/(.+)", list_branch_rules, True),
    ("GET", r"/branches/(.+)/protection", get_protection, False),
    ("GET", r"/environments/([^/]+)", get_environment, False),
    ("GET", r"/environments/([^/]+)/deployment-branch-policies", list_branch_policies, True),
    ("GET", r"/environments/([^/]+)/variables", list_env_variables, True),
    ("GET", r"/environments/([^/]+)/secrets", list_env_secrets, True),
    ("GET", r"/actions/variables/([^/]+)", get_variable, False),
    ("GET", r"/contents/?(.*)", get_contents, False),
    ("GET", r"/pulls/(\d+)", get_pull, False),
    ("GET", r"/pulls/(\d+)/files", list_pull_files, True),
    ("GET", r"/issues", list_issues, True),
    ("POST", r"/issues", create_issue, False),
    ("GET", r"/issues/(\d+)", get_issue, False),
    ("PATCH", r"/issues/(\d+)", update_issue, False),
    ("POST", r"/issues/(\d+)/comments", add_comment, False),
    ("GET", r"/issues/(\d+)/comments", list_comments, True),
    ("POST", r"/issues/(\d+)/labels", add_labels, False),
    ("POST", r"/statuses/([0-9a-fA-F]{4,40})", create_status, False),
    ("GET", r"/commits/([^/]+)/statuses", list_statuses, True),
    ("GET", r"/git/ref/(.+)", get_ref, False),
    ("GET", r"/activity", list_activity, True),
    ("GET", r"/actions/runs", list_runs, True),
    ("GET", r"/actions/workflows/([^/]+)/runs", list_runs, True),
    ("GET", r"/actions/runs/(\d+)", get_run, False),
    ("GET", r"/actions/runs/(\d+)/jobs", list_jobs, True),
    ("GET", r"/actions/runs/(\d+)/artifacts", list_artifacts, True),
    ("GET", r"/check-runs/(\d+)/annotations", list_annotations, True),
    ("POST", r"/actions/workflows/([^/]+)/dispatches", dispatch_workflow, False),
]


def authenticated_user(fake, api, method):
    """GET /user: the token's account; an installation token is refused as GitHub refuses it."""
    if method != "GET":
        return _not_found()
    if fake.installation:
        return _reply(403, shapes.error("Resource not accessible by integration", 403,
                                        "https://docs.github.com/rest/users/users#get-the-authenticated-user"))
    return _reply(200, shapes.public_user(api, fake.login))


def dispatch(fake, api, repo, r, method, rest, query, body, path):
    """Routes one request for an existing repository; unknown routes are 404 as on GitHub."""
    for verb, pattern, handler, paginated in ROUTES:
        m = re.fullmatch(pattern, rest)
        if not m or verb != method:
            continue
        if paginated:
            return handler(fake, api, repo, r, m, query, body, path)
        return handler(fake, api, repo, r, m, query, body)
    return _not_found()
