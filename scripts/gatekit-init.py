#!/usr/bin/env python3
"""gatekit-init: write gatekit's files into a repository (the guide's fast path).

    python3 scripts/gatekit-init.py --target PATH --gatekit-sha SHA \\
        [--python 3.12,3.13] [--gpu-python 3.12] [--gpu-paths 'src/pkg/gpu/**,tests/gpu/**'] \\
        [--gpu-labels self-hosted,gpu] [--container IMAGE@sha256:DIGEST [--container-options ...]] \\
        [--smokes MANIFEST | --no-smokes] [--gpu-install-deps] [--nightly] [--gpu-gate]
        [--install "python -m pip install -e '.[test]'"]

It renders gatekit's own workflow templates (workflows/cpu-tests.yml, workflows/gpu-tests.yml,
with --nightly workflows/flaky-nightly.yml and with --gpu-gate workflows/gate.yml, of the
checkout this script belongs to) for the repository: every `./actions/NAME` becomes
`gatekit/gatekit/actions/NAME@SHA`, the one pinned form docs/guides/workflow-authors.md uses,
and the Python versions, runner labels, container, install command and smoke job are set
from the flags. It also writes the rules file, the selection file, the actionlint
configuration, the pytest markers (pytest.ini, unless the repository already configures
pytest: then it prints the lines to add) and the list of required checks. With --gpu-gate it
also writes a starter configuration of the GPU gate (.github/gatekit/gpu-gate.yml) and lists
`gate/gpu` among the required checks; gate.yml is the strict mode, which needs a GitHub App
and an environment (docs/gpu-gate.md, "Setting up strict mode").

It writes nothing when any of its files exists already (exit 2, naming them): it never
overwrites. Exit codes: 0 written, 2 bad flags or a file exists (docs/exit-codes.md).
"""
from __future__ import annotations

import argparse
import configparser
import re
import sys
from pathlib import Path

GATEKIT = Path(__file__).resolve().parents[1]
TEMPLATES = GATEKIT / "workflows"
SHA = re.compile(r"^[0-9a-f]{40}$")
VERSION = re.compile(r"^3\.[0-9]{1,2}$")
LABEL = re.compile(r"^[A-Za-z0-9_.-]+$")
IMAGE = re.compile(r"^[a-z0-9][a-z0-9._/:-]*@sha256:[0-9a-f]{64}$")
# A path glob of the rules file: no quote, no newline, no YAML indicator at its start.
GLOB = re.compile(r"^[A-Za-z0-9_.*/\[\]?-][A-Za-z0-9_.*/\[\]?+@-]*$")
TEMPLATE_INSTALL = "python -m pip install -e '.[tests]'"
TEMPLATE_GPU_LABELS = "[self-hosted, gpu]"
TEMPLATE_GPU_PYTEST_ARGS = " -n 4 --timeout=300"
TEMPLATE_MANIFEST = "config/ci/gpu_regression_smokes.yaml"

MARKERS = {
    "gpu": "needs a GPU: runs on the GPU runners only",
    "nightly": "costly: run only by the daily schedule (and gpu-gate's full run)",
    "docs": "tests of the documentation: a docs-only change runs only these",
}


class Refusal(Exception):
    """A bad flag or an existing file: exit 2."""


def csv(text: str) -> list[str]:
    return [part.strip() for part in re.split(r"[,\s]+", text) if part.strip()]


def checked(values: list[str], pattern: re.Pattern, flag: str) -> list[str]:
    if not values:
        raise Refusal(f"{flag}: give at least one value")
    for value in values:
        if not pattern.match(value):
            raise Refusal(f"{flag}: '{value}' is not allowed here (expected {pattern.pattern})")
    return values


def replace_once(text: str, old: str, new: str, where: str, count: int = 1) -> str:
    found = text.count(old)
    if found != count:
        raise SystemExit(f"gatekit-init: {where}: expected {count} of {old!r}, found {found} "
                         "(the template changed: update scripts/gatekit-init.py)")
    return text.replace(old, new)


def pin_actions(text: str, sha: str) -> str:
    return re.sub(r"uses: \./actions/([a-z-]+)", rf"uses: gatekit/gatekit/actions/\1@{sha}", text)


def quoted_list(values: list[str]) -> str:
    return "[" + ", ".join(f"'{v}'" for v in values) + "]"


def render_cpu(o: argparse.Namespace) -> str:
    where = "workflows/cpu-tests.yml"
    text = (TEMPLATES / "cpu-tests.yml").read_text()
    text = replace_once(text, "python: ['3.10', '3.11', '3.12']", f"python: {quoted_list(o.python)}", where)
    text = replace_once(text, "variants: '3.10 3.11 3.12'", f"variants: '{' '.join(o.python)}'", where, 2)
    text = replace_once(text, "python-version: '3.12'", f"python-version: '{o.python[-1]}'", where)
    text = replace_once(text, TEMPLATE_INSTALL, o.install, where, 2)
    return pin_actions(text, o.gatekit_sha)


def render_nightly(o: argparse.Namespace) -> str:
    where = "workflows/flaky-nightly.yml"
    text = (TEMPLATES / "flaky-nightly.yml").read_text()
    text = replace_once(text, "python-version: '3.12'", f"python-version: '{o.python[-1]}'", where, 2)
    text = replace_once(text, TEMPLATE_INSTALL, o.install, where, 2)
    return pin_actions(text, o.gatekit_sha)


def render_gate(o: argparse.Namespace) -> str:
    """workflows/gate.yml as it is (strict mode, the workflow_run trigger naming `CPU tests`
    and `GPU tests`, which the rendered workflows keep), its actions pinned."""
    return pin_actions((TEMPLATES / "gate.yml").read_text(), o.gatekit_sha)


def gate_scope_folders(o: argparse.Namespace) -> list[str]:
    """The test folders of --gpu-paths (`tests/gpu/**` gives tests/gpu): the GPU gate's scope."""
    return [m.group(1) for p in o.gpu_paths if (m := re.fullmatch(r"(tests(?:/[A-Za-z0-9_.-]+)*)/\*\*", p))]


def render_gpu_gate(o: argparse.Namespace) -> str:
    folders = gate_scope_folders(o)
    return f"""# gatekit's GPU gate (schema: docs/gpu-gate.md in gatekit, "Configuration"). A developer's
# GPU machine runs `gpu-gate run --publish` on the committed tree and pushes the result as a
# git ref; .github/workflows/gate.yml turns it into the `gate/gpu` status of the pull request.
# Check what a change runs with `gpu-gate scope --why FILE`.
#
# The test command, as argv (no shell): {{workers}}, {{junit}} and {{tests}} are filled in by the
# gate, which leaves the nightly tests of .github/gatekit/suite.yml out (`run --full` runs them).
command: [python, -m, pytest, -n, '{{workers}}', '--junitxml={{junit}}', '{{tests}}']
workers: 8
# The device-dependent tests: test folders, modules whose importers are in scope, more files.
scope:
  folders: {quoted_list(folders) if folders else "[]  # e.g. [tests/gpu]"}
  modules: []  # e.g. [torch]
  extras: []
"""


def drop_job(text: str, job: str) -> str:
    """Removes one job (its comment lines above it included) from a workflow's text."""
    lines = text.splitlines(keepends=True)
    job_line = next(i for i, line in enumerate(lines) if line == f"  {job}:\n")
    start = job_line
    while start > 0 and lines[start - 1].startswith("  #"):
        start -= 1
    end = job_line + 1
    while end < len(lines) and not re.match(r"^  (#|[A-Za-z0-9_-]+:)", lines[end]):
        end += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return "".join(lines[:start] + lines[end:]).replace("\n\n\n", "\n\n")


def in_job(text: str, job: str, old: str, new: str) -> str:
    """Replaces `old` once, inside one job of a workflow's text."""
    start = text.index(f"\n  {job}:\n") + 1
    end = re.search(r"(?m)^  (?:#|[A-Za-z0-9_-]+:)", text[start + len(job) + 4:])
    end = start + len(job) + 4 + end.start() if end else len(text)
    return text[:start] + replace_once(text[start:end], old, new, f"job {job}") + text[end:]


def render_gpu(o: argparse.Namespace) -> str:
    where = "workflows/gpu-tests.yml"
    text = (TEMPLATES / "gpu-tests.yml").read_text()
    jobs = 2 if o.smokes else 1
    if not o.smokes:
        text = drop_job(text, "workload-regression")
        text = replace_once(text, "needs: [changes, gpu-tests, gpu-suite, workload-regression]",
                            "needs: [changes, gpu-tests, gpu-suite]", where)
        text = replace_once(text, "gated: gpu-tests=gpu,gpu-suite=gpu,workload-regression=gpu",
                            "gated: gpu-tests=gpu,gpu-suite=gpu", where)
    else:
        text = replace_once(text, f"manifest: {TEMPLATE_MANIFEST}", f"manifest: {o.smokes}", where)
    labels = "[" + ", ".join(o.gpu_labels) + "]"
    text = replace_once(text, f"runs-on: {TEMPLATE_GPU_LABELS}", f"runs-on: {labels}", where, jobs)
    template_image = re.search(r"^      image: (\S+)$", text, re.M).group(1)
    # The template's comments describe its ROCm image: they go, whatever replaces it.
    text = re.sub(r"(?m)^    # (The ROCm image|The same ROCm image)[^\n]*\n(?:    # [^\n]*\n)*", "", text)
    text = replace_once(text, "# The GPU jobs run on self-hosted runners, in a ROCm container pinned by digest.",
                        "# The GPU jobs run on self-hosted runners, " +
                        ("in a container pinned by digest." if o.container else "on the machine itself (no container)."),
                        where)
    if o.container:
        text = replace_once(text, f"image: {template_image}", f"image: {o.container}", where, jobs)
        text = replace_once(text, "options: --device=/dev/kfd --device=/dev/dri",
                            f"options: {o.container_options}" if o.container_options else "", where, jobs)
        text = re.sub(r"\n\s*\n(\s+timeout-minutes)", r"\n\1", text) if not o.container_options else text
    else:
        # No container: the jobs run on the runner's own system, which provides the GPU stack.
        text = re.sub(r"(?m)^    container:\n(?:      [^\n]*\n)+", "", text)
    # Every job that sets Python up (the shard baseline and report collect with pytest too)
    # uses the GPU jobs' version.
    text = replace_once(text, "python-version: '3.12'", f"python-version: '{o.gpu_python}'", where,
                        max(jobs, text.count("python-version: '3.12'")))
    text = replace_once(text, TEMPLATE_INSTALL, o.install, where, jobs)
    text = replace_once(text, TEMPLATE_GPU_PYTEST_ARGS, "", where)
    if o.gpu_install_deps:
        # Before a release lists its archive, a self-hosted runner builds the tools; it may
        # install the build packages itself (root or passwordless sudo).
        for job in ["gpu-tests", *(["workload-regression"] if o.smokes else [])]:
            text = in_job(text, job, "      - uses: ./actions/setup-gatekit\n",
                          "      - uses: ./actions/setup-gatekit\n        with:\n"
                          "          install-deps: true  # build packages, until a release lists its archive\n")
    return pin_actions(text, o.gatekit_sha)


def render_filters(o: argparse.Namespace) -> str:
    gpu_paths = [*o.gpu_paths, *( [o.smokes] if o.smokes else []), "pyproject.toml"]
    listed = "\n".join(f"      - '{p}'" for p in dict.fromkeys(gpu_paths))
    return f"""# gatekit's rules file: which suites a change needs (docs/actions/path-gate.md in gatekit).
# Read by the `changes` job of both workflows. Check a path with
#   path-classifier --rules .github/gatekit/filters.yml --explain PATH
filters:
  cpu:
    mode: deny            # run unless every changed file is on this list
    paths: ['.github/**', 'docs/**', '*.md']
    always: [.github/workflows/cpu-tests.yml, .github/gatekit/suite.yml]
  gpu:
    mode: allow           # run when some changed file is on this list: everything the GPU
    paths:                # jobs read, their imports and package __init__.py files included
{listed}
    always: [.github/workflows/gpu-tests.yml, .github/gatekit/suite.yml]
  docs:
    category: docs
"""


def render_suite(o: argparse.Namespace) -> str:
    return f"""# gatekit's selection file: which tests each CI leg runs (docs/actions/suite-report.md in
# gatekit). No workflow writes a marker expression itself.
version: 1
nightly-marker: nightly
nightly-contexts: [daily, gate-full]
legs:
  cpu:
    markers: not gpu
  gpu:
    device: gpu
    markers: gpu
docs:
  leg: cpu
  variant: '{o.python[-1]}'
  markers: docs
device-skips:
  - {{reason: no GPU visible, marker: gpu}}
  - {{reason: CUDA not available, marker: gpu}}
"""


def render_actionlint(o: argparse.Namespace) -> str:
    labels = "\n".join(f"    - {label}" for label in o.gpu_labels if label != "self-hosted")
    return f"self-hosted-runner:\n  labels:\n{labels}\n"


def render_required_checks(o: argparse.Namespace) -> str:
    if not o.gpu_gate:
        return """# The checks to require in branch protection (or a ruleset): exactly these two job names.
# Never a matrix leg or the `changes` job (docs/admin/required-checks.md in gatekit).
CPU tests
GPU tests
"""
    return """# The checks to require in branch protection (or a ruleset): the two job names and the GPU
# gate's commit status. Never a matrix leg or the `changes` job; `gate/gpu` with the GitHub App
# of .github/workflows/gate.yml as its expected source (docs/admin/required-checks.md and
# docs/gpu-gate.md, "Setting up strict mode", in gatekit).
CPU tests
GPU tests
gate/gpu
"""


def render_pytest_ini() -> str:
    lines = "\n".join(f"    {name}: {text}" for name, text in MARKERS.items())
    return f"[pytest]\naddopts = --strict-markers\nmarkers =\n{lines}\n"


def pytest_configured(target: Path) -> str | None:
    """The file that configures pytest already, if any (pytest reads the first it finds)."""
    for name in ("pytest.ini", ".pytest.ini"):
        if (target / name).is_file():
            return name
    pyproject = target / "pyproject.toml"
    if pyproject.is_file() and re.search(r"(?m)^\[tool\.pytest\.ini_options\]", pyproject.read_text()):
        return "pyproject.toml"
    for name, section in (("tox.ini", "pytest"), ("setup.cfg", "tool:pytest")):
        if (target / name).is_file():
            parser = configparser.ConfigParser()
            try:
                parser.read(target / name)
            except configparser.Error:
                return name
            if parser.has_section(section):
                return name
    return None


def parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="gatekit-init", description=__doc__.split("\n\n")[0])
    p.add_argument("--target", default=".", help="the repository's root (default: .)")
    p.add_argument("--gatekit-sha", required=True, help="the gatekit commit to pin (40 hex digits)")
    p.add_argument("--python", default="3.12", help="the CPU matrix's Python versions; the last runs the docs tests")
    p.add_argument("--gpu-python", default=None, help="the GPU jobs' Python (default: the last of --python)")
    p.add_argument("--gpu-paths", default="", help="the GPU filter's allow list: globs, comma-separated")
    p.add_argument("--gpu-labels", default="self-hosted,gpu", help="the GPU runners' labels")
    p.add_argument("--container", default="", help="IMAGE@sha256:DIGEST the GPU jobs run in (default: none)")
    p.add_argument("--container-options", default="", help="the container's options, e.g. --gpus all")
    smokes = p.add_mutually_exclusive_group()
    smokes.add_argument("--smokes", default="", metavar="MANIFEST", help="keep the smoke job, with this manifest")
    smokes.add_argument("--no-smokes", action="store_true", help="drop the smoke job (the default)")
    p.add_argument("--gpu-install-deps", action="store_true",
                   help="the GPU jobs' setup-gatekit may install the build packages (install-deps: true)")
    p.add_argument("--nightly", action="store_true",
                   help="also write the daily flaky-test workflow (the full suite and a stress run)")
    p.add_argument("--gpu-gate", action="store_true",
                   help="also write the GPU gate: gate.yml (strict mode), .github/gatekit/gpu-gate.yml, gate/gpu required")
    p.add_argument("--install", default="python -m pip install -e .", help="the install command of the test jobs")
    o = p.parse_args(argv)
    if not SHA.match(o.gatekit_sha):
        raise Refusal(f"--gatekit-sha: '{o.gatekit_sha}' is not a full commit SHA (40 lowercase hex digits)")
    o.python = checked(csv(o.python), VERSION, "--python")
    o.gpu_python = checked([o.gpu_python or o.python[-1]], VERSION, "--gpu-python")[0]
    o.gpu_paths = checked(csv(o.gpu_paths), GLOB, "--gpu-paths")
    o.gpu_labels = checked(csv(o.gpu_labels), LABEL, "--gpu-labels")
    if o.container and not IMAGE.match(o.container):
        raise Refusal(f"--container: '{o.container}' must be pinned by digest: NAME[:TAG]@sha256:<64 hex>")
    if o.container_options and not o.container:
        raise Refusal("--container-options: needs --container")
    if re.search(r"[\n\"$`\\]|: | #", o.install + o.container_options):
        raise Refusal("--install, --container-options: '\"', '$', '`', '\\', ': ', ' #' and newlines are not "
                      "allowed (edit the workflow by hand for more)")
    if o.smokes and not GLOB.match(o.smokes):
        raise Refusal(f"--smokes: '{o.smokes}' is not a plain relative path")
    if o.install == "":
        raise Refusal("--install: give the command that installs the project and its test dependencies")
    return o


def main(argv: list[str]) -> int:
    try:
        o = parse(argv)
        target = Path(o.target)
        if not (target / ".git").exists():
            raise Refusal(f"--target: {target} is not the root of a git repository")
        files = {
            ".github/workflows/cpu-tests.yml": render_cpu(o),
            ".github/workflows/gpu-tests.yml": render_gpu(o),
            ".github/gatekit/filters.yml": render_filters(o),
            ".github/gatekit/suite.yml": render_suite(o),
            ".github/gatekit/required-checks.txt": render_required_checks(o),
            ".github/actionlint.yaml": render_actionlint(o),
        }
        if o.nightly:
            files[".github/workflows/flaky-nightly.yml"] = render_nightly(o)
        if o.gpu_gate:
            files[".github/workflows/gate.yml"] = render_gate(o)
            files[".github/gatekit/gpu-gate.yml"] = render_gpu_gate(o)
        configured = pytest_configured(target)
        if configured is None:
            files["pytest.ini"] = render_pytest_ini()
        existing = [rel for rel in files if (target / rel).exists()]
        if existing:
            raise Refusal("these files exist already; nothing was written (move them away, or merge by hand): "
                          + ", ".join(existing))
    except Refusal as refusal:
        print(f"gatekit-init: error: {refusal}", file=sys.stderr)
        return 2
    for rel, text in files.items():
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "x", encoding="utf-8") as out:  # "x": never over a file made meanwhile
            out.write(text)
        print(f"wrote {rel}")
    if configured:
        print(f"pytest is configured in {configured}: register these markers there (pytest exits 4 on an "
              "unknown marker with --strict-markers, and every selection names them):")
        for name, text in MARKERS.items():
            print(f"    {name}: {text}")
    print("next: commit these files, then require the checks listed in .github/gatekit/required-checks.txt")
    if o.gpu_gate:
        print("gate.yml posts gate/gpu with a GitHub App's token from the environment gatekit-gate: create "
              "both first (docs/gpu-gate.md, \"Setting up strict mode\", in gatekit)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
