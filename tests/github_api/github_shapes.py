"""Response bodies in the shapes GitHub's REST API returns them.

Every builder fills all fields the OpenAPI description (npm @octokit/openapi) marks as
required, with the documented types and formats; test_openapi_fidelity.py validates each
shape the server emits against that description, so a drift is a failing test.
Values are deterministic (ids derive from names and numbers) so tests can compare bodies.
"""
import base64
import hashlib
from urllib.parse import quote

EPOCH_ISO = "2024-01-01T00:00:00Z"


def stable_id(*parts) -> int:
    digest = hashlib.sha256("/".join(str(p) for p in parts).encode()).hexdigest()
    return int(digest[:8], 16) + 1


def node_id(*parts) -> str:
    return "N_" + hashlib.sha256("/".join(str(p) for p in parts).encode()).hexdigest()[:16]


def user(api: str, login: str = "octocat") -> dict:
    """A simple-user; a login ending in [bot] (an app's account, e.g. github-actions[bot]) is a Bot."""
    bot = login.endswith("[bot]")
    # As GitHub writes them: an app's account links to the app; [ and ] are percent-encoded.
    html = "https://github.com/apps/" + login[:-5] if bot else "https://github.com/" + login
    url = f"{api}/users/{quote(login)}"
    return {
        "login": login, "id": stable_id("user", login), "node_id": node_id("user", login),
        "avatar_url": f"https://avatars.githubusercontent.com/u/{stable_id('user', login)}",
        "gravatar_id": "", "url": url, "html_url": html,
        "followers_url": url + "/followers", "following_url": url + "/following",
        "gists_url": url + "/gists", "starred_url": url + "/starred",
        "subscriptions_url": url + "/subscriptions", "organizations_url": url + "/orgs",
        "repos_url": url + "/repos", "events_url": url + "/events",
        "received_events_url": url + "/received_events", "type": "Bot" if bot else "User",
        "site_admin": False,
    }


def public_user(api: str, login: str) -> dict:
    """GET /user as GitHub answers it without the user scope (public profile only)."""
    out = user(api, login)
    out.update({"name": None, "company": None, "blog": "", "location": None, "email": None, "hireable": None,
                "bio": None, "public_repos": 0, "public_gists": 0, "followers": 0, "following": 0,
                "created_at": EPOCH_ISO, "updated_at": EPOCH_ISO, "user_view_type": "public"})
    return out


_REPO_URL_FIELDS = [
    "archive", "assignees", "blobs", "branches", "collaborators", "comments", "commits", "compare",
    "contents", "contributors", "deployments", "downloads", "events", "forks", "git_commits",
    "git_refs", "git_tags", "hooks", "issue_comment", "issue_events", "issues", "keys", "labels",
    "languages", "merges", "milestones", "notifications", "pulls", "releases", "stargazers",
    "statuses", "subscribers", "subscription", "tags", "teams", "trees",
]


def minimal_repository(api: str, full_name: str) -> dict:
    owner, name = full_name.split("/", 1)
    url = f"{api}/repos/{full_name}"
    repo = {
        "id": stable_id("repo", full_name), "node_id": node_id("repo", full_name), "name": name,
        "full_name": full_name, "owner": user(api, owner), "private": False,
        "html_url": "https://github.com/" + full_name, "description": None, "fork": False, "url": url,
    }
    for field in _REPO_URL_FIELDS:
        repo[field + "_url"] = f"{url}/{field}"
    return repo


def repository(api: str, full_name: str, default_branch: str = "main") -> dict:
    repo = minimal_repository(api, full_name)
    repo.update({
        "clone_url": f"https://github.com/{full_name}.git", "git_url": f"git://github.com/{full_name}.git",
        "ssh_url": f"git@github.com:{full_name}.git", "svn_url": f"https://github.com/{full_name}",
        "mirror_url": None, "homepage": None, "language": None, "default_branch": default_branch,
        "forks": 0, "forks_count": 0, "stargazers_count": 0, "watchers": 0, "watchers_count": 0,
        "size": 0, "open_issues": 0, "open_issues_count": 0,
        "has_downloads": True, "has_issues": True, "has_projects": True, "has_wiki": True,
        "has_pages": False, "archived": False, "disabled": False, "license": None,
        "pushed_at": EPOCH_ISO, "created_at": EPOCH_ISO, "updated_at": EPOCH_ISO,
    })
    return repo


def label(api: str, repo: str, name: str) -> dict:
    return {
        "id": stable_id("label", repo, name), "node_id": node_id("label", repo, name),
        "url": f"{api}/repos/{repo}/labels/{name}", "name": name, "description": None,
        "color": "ededed", "default": False,
    }


def pull_request(api: str, repo: str, pr: dict) -> dict:
    number = pr["number"]
    url = f"{api}/repos/{repo}/pulls/{number}"
    html = f"https://github.com/{repo}/pull/{number}"
    issue_url = f"{api}/repos/{repo}/issues/{number}"

    def side(ref: str, sha: str) -> dict:
        owner = repo.split("/")[0]
        return {"label": f"{owner}:{ref}", "ref": ref, "sha": sha, "repo": repository(api, repo),
                "user": user(api, owner)}

    def link(href: str) -> dict:
        return {"href": href}

    return {
        "url": url, "id": stable_id("pull", repo, number), "node_id": node_id("pull", repo, number),
        "html_url": html, "diff_url": html + ".diff", "patch_url": html + ".patch", "issue_url": issue_url,
        "commits_url": url + "/commits", "review_comments_url": url + "/comments",
        "review_comment_url": f"{api}/repos/{repo}/pulls/comments{{/number}}",
        "comments_url": issue_url + "/comments", "statuses_url": f"{api}/repos/{repo}/statuses/{pr['head_sha']}",
        "number": number, "state": pr.get("state", "open"), "locked": False, "title": pr.get("title", f"PR {number}"),
        "user": user(api), "body": pr.get("body"), "labels": [], "milestone": None,
        "created_at": EPOCH_ISO, "updated_at": EPOCH_ISO, "closed_at": None, "merged_at": None,
        "merge_commit_sha": None, "assignee": None, "author_association": "OWNER", "auto_merge": None,
        "head": side(pr.get("head_ref", "feature"), pr["head_sha"]),
        "base": side(pr.get("base_ref", "main"), pr["base_sha"]),
        "_links": {"self": link(url), "html": link(html), "issue": link(issue_url),
                   "comments": link(issue_url + "/comments"), "review_comments": link(url + "/comments"),
                   "review_comment": link(f"{api}/repos/{repo}/pulls/comments{{/number}}"),
                   "commits": link(url + "/commits"), "statuses": link(f"{api}/repos/{repo}/statuses/{pr['head_sha']}")},
        "merged": False, "mergeable": None, "mergeable_state": "unknown", "merged_by": None,
        "comments": 0, "review_comments": 0, "maintainer_can_modify": False, "commits": 1,
        "additions": 0, "deletions": 0, "changed_files": pr["changed_files"],
    }


def diff_entry(api: str, repo: str, sha: str, f: dict) -> dict:
    name = f["filename"]
    entry = {
        "sha": hashlib.sha1(name.encode()).hexdigest(), "filename": name, "status": f.get("status", "modified"),
        "additions": f.get("additions", 1), "deletions": f.get("deletions", 0),
        "changes": f.get("additions", 1) + f.get("deletions", 0),
        "blob_url": f"https://github.com/{repo}/blob/{sha}/{name}",
        "raw_url": f"https://github.com/{repo}/raw/{sha}/{name}",
        "contents_url": f"{api}/repos/{repo}/contents/{name}?ref={sha}",
    }
    if f.get("previous_filename"):
        entry["previous_filename"] = f["previous_filename"]
    if "patch" in f:
        entry["patch"] = f["patch"]
    return entry


def issue(api: str, repo: str, it: dict) -> dict:
    number = it["number"]
    url = f"{api}/repos/{repo}/issues/{number}"
    out = {
        "id": stable_id("issue", repo, number), "node_id": node_id("issue", repo, number), "url": url,
        "repository_url": f"{api}/repos/{repo}", "labels_url": url + "/labels{/name}",
        "comments_url": url + "/comments", "events_url": url + "/events",
        "html_url": f"https://github.com/{repo}/issues/{number}", "number": number,
        "state": it.get("state", "open"), "title": it["title"], "body": it.get("body"),
        "user": user(api, it.get("user") or "octocat"),
        "labels": [label(api, repo, name) for name in it.get("labels", [])], "assignee": None,
        "milestone": None, "locked": False, "comments": len(it.get("comments", [])),
        "closed_at": it.get("closed_at") or EPOCH_ISO if it.get("state") == "closed" else None,
        "created_at": it.get("created_at") or EPOCH_ISO, "updated_at": it.get("created_at") or EPOCH_ISO,
        "author_association": "OWNER",
    }
    if it.get("state") == "closed":
        out["state_reason"] = "completed"
    if it.get("pull_request"):
        html = f"https://github.com/{repo}/pull/{number}"
        out["pull_request"] = {"url": f"{api}/repos/{repo}/pulls/{number}", "html_url": html,
                               "diff_url": html + ".diff", "patch_url": html + ".patch"}
    return out


def issue_comment(api: str, repo: str, number: int, comment_id: int, body: str, login: str = "octocat") -> dict:
    return {
        "id": comment_id, "node_id": node_id("comment", comment_id),
        "url": f"{api}/repos/{repo}/issues/comments/{comment_id}",
        "html_url": f"https://github.com/{repo}/issues/{number}#issuecomment-{comment_id}",
        "issue_url": f"{api}/repos/{repo}/issues/{number}", "body": body, "user": user(api, login),
        "created_at": EPOCH_ISO, "updated_at": EPOCH_ISO, "author_association": "OWNER",
    }


def status(api: str, repo: str, sha: str, s: dict) -> dict:
    return {
        "url": f"{api}/repos/{repo}/statuses/{sha}", "avatar_url": None, "id": s["id"],
        "node_id": node_id("status", s["id"]), "state": s["state"], "description": s.get("description"),
        "target_url": s.get("target_url"), "context": s.get("context", "default"),
        "created_at": s.get("created_at", EPOCH_ISO), "updated_at": s.get("created_at", EPOCH_ISO),
        "creator": user(api, s.get("creator", "octocat")) if s.get("creator", "octocat") else None,
    }


def git_ref(api: str, repo: str, ref: str, sha: str) -> dict:
    return {"ref": "refs/" + ref, "node_id": node_id("ref", repo, ref), "url": f"{api}/repos/{repo}/git/refs/{ref}",
            "object": {"type": "commit", "sha": sha, "url": f"{api}/repos/{repo}/git/commits/{sha}"}}


def activity(api: str, repo: str, a: dict) -> dict:
    return {"id": a["id"], "node_id": node_id("activity", repo, a["id"]), "before": a["before"], "after": a["after"],
            "ref": a["ref"], "timestamp": a["timestamp"], "activity_type": a["activity_type"],
            "actor": user(api, a["actor"])}


def workflow_run(api: str, repo: str, run: dict) -> dict:
    rid = run["id"]
    url = f"{api}/repos/{repo}/actions/runs/{rid}"
    workflow = run.get("workflow", "ci.yml")
    return {
        "id": rid, "name": run.get("name", "CI"), "node_id": node_id("run", rid),
        "head_branch": run.get("head_branch", "main"), "head_sha": run["head_sha"],
        "path": ".github/workflows/" + workflow, "display_title": run.get("display_title", "CI"),
        "run_number": run.get("run_number", rid), "event": run.get("event", "push"),
        "status": run.get("status", "completed"), "conclusion": run.get("conclusion"),
        "workflow_id": stable_id("workflow", repo, workflow), "url": url,
        "html_url": f"https://github.com/{repo}/actions/runs/{rid}", "pull_requests": [],
        "created_at": run.get("created_at", EPOCH_ISO), "updated_at": run.get("created_at", EPOCH_ISO),
        "jobs_url": url + "/jobs", "logs_url": url + "/logs", "check_suite_url": f"{api}/repos/{repo}/check-suites/{rid}",
        "artifacts_url": url + "/artifacts", "cancel_url": url + "/cancel", "rerun_url": url + "/rerun",
        "workflow_url": f"{api}/repos/{repo}/actions/workflows/{stable_id('workflow', repo, workflow)}",
        "head_commit": {"id": run["head_sha"], "tree_id": run["head_sha"], "message": "commit",
                        "timestamp": EPOCH_ISO, "author": {"name": "Octo Cat", "email": "octocat@example.com"},
                        "committer": {"name": "Octo Cat", "email": "octocat@example.com"}},
        "repository": minimal_repository(api, repo),
        "head_repository": minimal_repository(api, run.get("head_repository") or repo),
    }


def job(api: str, repo: str, run: dict, j: dict) -> dict:
    jid = j["id"]
    status_ = j.get("status", "completed")
    return {
        "id": jid, "run_id": run["id"], "run_url": f"{api}/repos/{repo}/actions/runs/{run['id']}",
        "node_id": node_id("job", jid), "head_sha": run["head_sha"], "url": f"{api}/repos/{repo}/actions/jobs/{jid}",
        "html_url": f"https://github.com/{repo}/actions/runs/{run['id']}/job/{jid}", "status": status_,
        "conclusion": j.get("conclusion", "success" if status_ == "completed" else None),
        "created_at": j.get("created_at", EPOCH_ISO), "started_at": j.get("started_at", EPOCH_ISO),
        "completed_at": j.get("completed_at", EPOCH_ISO) if status_ == "completed" else None, "name": j["name"],
        "steps": [], "check_run_url": f"{api}/repos/{repo}/check-runs/{jid}",
        "labels": j.get("labels", ["ubuntu-latest"]), "runner_id": None, "runner_name": j.get("runner_name"),
        "runner_group_id": None, "runner_group_name": None,
        "workflow_name": run.get("name", "CI"), "head_branch": run.get("head_branch", "main"),
    }


def annotation(api: str, repo: str, a: dict) -> dict:
    """A check run's annotation (a job's warning or error line, e.g. the path gate's fail-open warning)."""
    return {
        "path": a.get("path", ".github"), "start_line": a.get("start_line", 1), "end_line": a.get("end_line", 1),
        "start_column": None, "end_column": None, "annotation_level": a.get("level", "warning"),
        "title": a.get("title", ""), "message": a["message"], "raw_details": None,
        "blob_href": f"https://github.com/{repo}/blob/{'0' * 40}/{a.get('path', '.github')}",
    }


def artifact(api: str, repo: str, a: dict) -> dict:
    aid = a["id"]
    url = f"{api}/repos/{repo}/actions/artifacts/{aid}"
    return {
        "id": aid, "node_id": node_id("artifact", aid), "name": a["name"],
        "size_in_bytes": a.get("size_in_bytes", 1024), "url": url, "archive_download_url": url + "/zip",
        "expired": a.get("expired", False), "created_at": EPOCH_ISO, "expires_at": "2024-04-01T00:00:00Z",
        "updated_at": EPOCH_ISO,
    }


def error(message: str, status: int, docs: str = "https://docs.github.com/rest", errors=None) -> dict:
    body = {"message": message, "documentation_url": docs, "status": str(status)}
    if errors is not None:
        body["errors"] = errors
    return body


def full_repository(api: str, full_name: str, default_branch: str = "main") -> dict:
    """GET /repos/{owner}/{repo}."""
    repo = repository(api, full_name, default_branch)
    repo.update({"has_discussions": False, "network_count": 0, "subscribers_count": 0})
    return repo


def branch_rule(rule: dict) -> dict:
    """One rule of GET /repos/{owner}/{repo}/rules/branches/{branch}, with its ruleset's details.
    rule: {"type", "checks": [{"context", "integration_id"}], "ruleset_id", "ruleset_source",
    "ruleset_source_type"}; a merge_queue rule gets GitHub's default parameters."""
    out = {"type": rule["type"], "ruleset_source_type": rule.get("ruleset_source_type", "Repository"),
           "ruleset_source": rule.get("ruleset_source", "o/r"), "ruleset_id": rule.get("ruleset_id", 1)}
    if rule["type"] == "required_status_checks":
        out["parameters"] = {
            "strict_required_status_checks_policy": rule.get("strict", False),
            "do_not_enforce_on_create": False,
            "required_status_checks": [
                {k: v for k, v in c.items() if k in ("context", "integration_id") and v is not None}
                for c in rule.get("checks", [])]}
    elif rule["type"] == "merge_queue":
        out["parameters"] = {"check_response_timeout_minutes": 60, "grouping_strategy": "ALLGREEN",
                             "max_entries_to_build": 5, "max_entries_to_merge": 5, "merge_method": "MERGE",
                             "min_entries_to_merge": 1, "min_entries_to_merge_wait_minutes": 5}
    return out


def branch_protection(api: str, repo: str, branch: str, protection: dict) -> dict:
    """GET .../branches/{branch}/protection; protection: {"checks": [{"context", "app_id"}], "strict"}."""
    url = f"{api}/repos/{repo}/branches/{branch}/protection"
    out = {"url": url,
           "required_signatures": {"url": url + "/required_signatures", "enabled": False},
           "enforce_admins": {"url": url + "/enforce_admins", "enabled": False},
           "required_linear_history": {"enabled": False}, "allow_force_pushes": {"enabled": False},
           "allow_deletions": {"enabled": False}, "block_creations": {"enabled": False},
           "required_conversation_resolution": {"enabled": False}, "lock_branch": {"enabled": False},
           "allow_fork_syncing": {"enabled": False}}
    if protection.get("checks") is not None:
        checks = [{"context": c["context"], "app_id": c.get("app_id")} for c in protection["checks"]]
        out["required_status_checks"] = {
            "url": url + "/required_status_checks", "strict": protection.get("strict", True),
            "contexts": [c["context"] for c in checks], "checks": checks,
            "contexts_url": url + "/required_status_checks/contexts"}
    return out


def environment(api: str, repo: str, name: str, env: dict) -> dict:
    """GET .../environments/{name}; env: {"branches": "all" | "protected" | "custom"}."""
    branches = env.get("branches", "all")
    policy = None if branches == "all" else {"protected_branches": branches == "protected",
                                             "custom_branch_policies": branches == "custom"}
    return {"id": stable_id("environment", repo, name), "node_id": node_id("environment", repo, name),
            "name": name, "url": f"{api}/repos/{repo}/environments/{name}",
            "html_url": f"https://github.com/{repo}/deployments/activity_log?environments_filter={name}",
            "created_at": EPOCH_ISO, "updated_at": EPOCH_ISO, "protection_rules": [],
            "deployment_branch_policy": policy}


def deployment_branch_policy(repo: str, env_name: str, policy: dict) -> dict:
    return {"id": stable_id("branch-policy", repo, env_name, policy["name"]),
            "node_id": node_id("branch-policy", repo, env_name, policy["name"]), "name": policy["name"],
            "type": policy.get("type", "branch")}


def actions_variable(name: str, value: str) -> dict:
    return {"name": name, "value": value, "created_at": EPOCH_ISO, "updated_at": EPOCH_ISO}


def actions_secret(name: str) -> dict:
    return {"name": name, "created_at": EPOCH_ISO, "updated_at": EPOCH_ISO}


def _content_links(api: str, repo: str, path: str, ref: str, kind: str) -> dict:
    url = f"{api}/repos/{repo}/contents/{path}?ref={ref}"
    sha = hashlib.sha1(f"{kind}:{path}".encode()).hexdigest()
    git = f"{api}/repos/{repo}/git/{'trees' if kind == 'dir' else 'blobs'}/{sha}"
    html = f"https://github.com/{repo}/{'tree' if kind == 'dir' else 'blob'}/{ref}/{path}"
    return {"sha": sha, "url": url, "git_url": git, "html_url": html,
            "download_url": None if kind == "dir" else f"https://raw.githubusercontent.com/{repo}/{ref}/{path}",
            "_links": {"self": url, "git": git, "html": html}}


def content_entry(api: str, repo: str, path: str, ref: str, kind: str, size: int = 0) -> dict:
    """One entry of a folder listing (GET .../contents/{folder})."""
    return {"type": kind, "size": size, "name": path.rsplit("/", 1)[-1], "path": path,
            **_content_links(api, repo, path, ref, kind)}


def content_file(api: str, repo: str, path: str, ref: str, text: str) -> dict:
    """GET .../contents/{file}: the text base64-encoded with a line break every 60 characters, as GitHub sends it."""
    data = base64.b64encode(text.encode()).decode()
    content = "".join(data[i:i + 60] + "\n" for i in range(0, len(data), 60))
    return {"type": "file", "encoding": "base64", "size": len(text.encode()), "name": path.rsplit("/", 1)[-1],
            "path": path, "content": content, **_content_links(api, repo, path, ref, "file")}
