#!/usr/bin/env python3
"""gatekit-init: write gatekit's files into a repository (the guide's fast path).

    python3 scripts/gatekit-init.py --target PATH --gatekit-sha SHA \\
        [--python 3.12,3.13] [--gpu-python 3.12] [--gpu-paths 'src/pkg/gpu/**,tests/gpu/**'] \\
        [--gpu-labels self-hosted,gpu] [--container IMAGE@sha256:DIGEST [--container-options ...]] \\
        [--smokes MANIFEST | --no-smokes] [--gpu-install-deps] [--nightly] [--gpu-gate]
        [--install "python -m pip install -e '.[test]'"] [--gpu-markers gpu,rocm]

It renders gatekit's own workflow templates (workflows/cpu-tests.yml, workflows/gpu-tests.yml,
with --nightly workflows/flaky-nightly.yml and with --gpu-gate workflows/gate.yml, of the
checkout this script belongs to) for the repository: every `./actions/NAME` becomes
`gatekit/gatekit/actions/NAME@SHA`, the one pinned form docs/guides/workflow-authors.md uses,
and the Python versions, runner labels, container, install command and smoke job are set
from the flags. It also writes the rules file, the selection file, the actionlint
configuration, the pytest markers (pytest.ini, unless the repository already configures
pytest: then the markers it does not register yet go into a root conftest.py, or, when one
exists, it prints the lines to add) and the list of required checks. The rules put the files every test run depends on (the Python
environment, pytest's configuration, the container image: TEST_RUN_FILES) into every suite's
filter, and the package `__init__.py` files above each --gpu-paths folder into the GPU filter.
The GPU selection uses the device markers the project registers or its tests carry already
(`gpu`, `rocm`, `cuda`, ...: DEVICE_MARKERS), else `gpu`; --gpu-markers names them outright.
With --gpu-gate it also writes a starter configuration of the GPU gate (.github/gatekit/gpu-gate.yml) and lists
`gate/gpu` among the required checks; gate.yml is the strict mode, which needs a GitHub App
and an environment (docs/gpu-gate.md, "Setting up strict mode").

It checks everything before it writes anything: the target must be an existing folder, the
root of a git repository (not a folder inside one), every folder it writes into must be
writable, and no file it writes may exist already, a symbolic link included (even one to a
missing path), nor any folder on the way be a file or a symbolic link. Otherwise it writes
nothing and exits 2 naming the reason: it never overwrites, and never writes outside the
repository. Should a write fail all the same (a full disk), it removes what it wrote and exits 3.
Exit codes: 0 written, 2 bad flags, a file exists or the target cannot take the files, 3 a write
failed and was undone (docs/exit-codes.md).
"""
from __future__ import annotations

import argparse
import configparser
import os
import re
import subprocess
import sys
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python 3.10: pyproject.toml's markers are then read by a pattern
    tomllib = None

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

MARKER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
MARKERS = {
    "gpu": "needs a GPU: runs on the GPU runners only",
    "nightly": "costly: run only by the daily schedule (and gpu-gate's full run)",
    "docs": "tests of the documentation: a docs-only change runs only these",
}
# Markers that mean "needs a GPU" in the projects gatekit has met (ROCm/aorta registers `gpu`
# and `rocm`): the registered ones among these select the GPU leg.
DEVICE_MARKERS = ("gpu", "gpus", "multi_gpu", "multigpu", "cuda", "rocm", "hip", "mps", "xpu")
# Files every test run depends on, whatever the suite: the Python environment (dependency
# lists and lock files), pytest's configuration and fixtures, the container image. A change to
# one runs every suite (`always:` of each filter). Derived from ROCm/aorta's history, where the
# scaffold's rules skipped the GPU suite for changes to these alone
# (tests/scaffold/data/aorta_ranges.yml).
TEST_RUN_FILES = (
    "pyproject.toml", "setup.py", "setup.cfg", "tox.ini", "noxfile.py", "pytest.ini", "MANIFEST.in",
    "**/conftest.py",
    "**/requirements*.txt", "**/requirements/**", "**/constraints*.txt",
    "Pipfile", "Pipfile.lock", "poetry.lock", "uv.lock", "pdm.lock", "environment*.yml", "environment*.yaml",
    "**/Dockerfile*", "**/*.dockerfile", "**/docker-compose*.yml", "**/docker-compose*.yaml",
    "**/compose.yml", "**/compose.yaml",
)


class Refusal(Exception):
    """A bad flag, an existing file or a target that cannot take the files: exit 2."""


class WriteFailed(Exception):
    """A write failed after every check passed (a full disk); what was written is undone: exit 3."""


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
# workers: 4  # pytest-xdist workers; unset: this machine's CPUs (`gpu-gate run -n N` for one run)
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
        # The shard job holds issues: write and sets its tools up verified: true (never tools
        # on PATH): it builds them in a fresh folder every time until a release lists its archive.
        text = in_job(text, "gpu-tests", "        uses: ./actions/setup-gatekit\n        with:\n          verified: 'true'\n",
                      "        uses: ./actions/setup-gatekit\n        with:\n          verified: 'true'\n"
                      "          install-deps: true  # build packages, until a release lists its archive\n")
        if o.smokes:
            text = in_job(text, "workload-regression", "      - uses: ./actions/setup-gatekit\n",
                          "      - uses: ./actions/setup-gatekit\n        with:\n"
                          "          install-deps: true  # build packages, until a release lists its archive\n")
    return pin_actions(text, o.gatekit_sha)


def package_inits(target: Path, globs: list[str]) -> list[str]:
    """The `__init__.py` files that exist in the target in each glob's folder and the folders
    above it (`src/pkg/gpu/**` gives src/pkg/__init__.py; its own is under `**`): Python runs
    them on every import below them, so a change to one changes what the GPU tests run."""
    found = []
    for glob in globs:
        literal = re.split(r"[*?\[]", glob, maxsplit=1)[0]
        parts = literal.split("/")[:-1]  # the folders before the file name (or its pattern)
        own_covered = glob == "/".join(parts) + "/**"
        for depth in range(1, len(parts) + (0 if own_covered else 1)):
            init = "/".join(parts[:depth]) + "/__init__.py"
            if (target / init).is_file() and init not in found:
                found.append(init)
    return found


def yaml_list(items, indent: str) -> str:
    return "\n".join(f"{indent}- '{item}'" for item in items)


def render_filters(o: argparse.Namespace) -> str:
    gpu_paths = [*o.gpu_paths, *([o.smokes] if o.smokes else [])]
    inits = [init for init in package_inits(Path(o.target), o.gpu_paths) if init not in gpu_paths]
    listed = yaml_list(dict.fromkeys(gpu_paths), "      ")
    if inits:
        listed += "\n      # the packages above them: Python runs their __init__.py on every import below\n"
        listed += yaml_list(inits, "      ")
    run_files = yaml_list(TEST_RUN_FILES, "        ")
    return f"""# gatekit's rules file: which suites a change needs (docs/actions/path-gate.md in gatekit).
# Read by the `changes` job of both workflows. Check a path with
#   path-classifier --rules .github/gatekit/filters.yml --explain PATH
filters:
  cpu:
    mode: deny            # run unless every changed file is on this list
    paths: ['.github/**', 'docs/**', '*.md']
    always:
      - .github/workflows/cpu-tests.yml
      - .github/gatekit/suite.yml
      # The files every test run depends on (the Python environment, pytest's configuration
      # and fixtures, the container image): a change to one runs every suite. Each filter
      # lists them (*test-run); remove an entry only where no suite reads it.
      - &test-run
{run_files}
  gpu:
    mode: allow           # run when some changed file is on this list: everything the GPU
    paths:                # jobs read, their imports and package __init__.py files included
{listed}
    always:
      - .github/workflows/gpu-tests.yml
      - .github/gatekit/suite.yml
      - *test-run
  docs:
    category: docs
    always: [*test-run]
"""


def marker_expression(markers: list[str], negate: bool) -> str:
    if len(markers) == 1:
        return f"not {markers[0]}" if negate else markers[0]
    either = " or ".join(markers)
    return f"not ({either})" if negate else either


def render_suite(o: argparse.Namespace) -> str:
    device = o.gpu_markers[0]
    return f"""# gatekit's selection file: which tests each CI leg runs (docs/actions/suite-report.md in
# gatekit). No workflow writes a marker expression itself.
version: 1
nightly-marker: nightly
nightly-contexts: [daily, gate-full]
legs:
  cpu:
    markers: {marker_expression(o.gpu_markers, True)}
  gpu:
    device: gpu
    markers: {marker_expression(o.gpu_markers, False)}
docs:
  leg: cpu
  variant: '{o.python[-1]}'
  markers: docs
device-skips:
  - {{reason: no GPU visible, marker: {device}}}
  - {{reason: CUDA not available, marker: {device}}}
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


def render_pytest_ini(o: argparse.Namespace) -> str:
    lines = "\n".join(f"    {name}: {text}" for name, text in wanted_markers(o).items())
    return f"[pytest]\naddopts = --strict-markers\nmarkers =\n{lines}\n"


def wanted_markers(o: argparse.Namespace) -> dict:
    """The markers the selections name: the GPU leg's, `nightly` and `docs`."""
    device = {name: MARKERS["gpu"] for name in o.gpu_markers}
    return {**device, "nightly": MARKERS["nightly"], "docs": MARKERS["docs"]}


def marker_names(lines) -> list[str]:
    """The names of pytest's `markers` lines (`gpu: needs a GPU`, `slow(reason): ...`)."""
    names = []
    for line in lines:
        found = re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)", str(line))
        if found:
            names.append(found.group(1))
    return names


def ini_markers(path: Path, section: str) -> list[str] | None:
    """The `markers` of [section] in an ini file; None when it has no such section."""
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read(path, encoding="utf-8")
    except (configparser.Error, UnicodeDecodeError) as error:
        raise Refusal(f"{path.name}: cannot read it to find pytest's markers ({error.__class__.__name__}): fix it "
                      "first") from None
    if not parser.has_section(section):
        return None
    return marker_names(parser.get(section, "markers", fallback="").splitlines())


def pyproject_markers(path: Path) -> list[str] | None:
    text = path.read_text(encoding="utf-8", errors="replace")
    if not re.search(r"(?m)^\[tool\.pytest\.ini_options\]", text):
        return None
    if tomllib is not None:
        try:
            options = tomllib.loads(text).get("tool", {}).get("pytest", {}).get("ini_options", {})
        except tomllib.TOMLDecodeError as error:
            raise Refusal(f"pyproject.toml: not valid TOML ({error}): fix it first") from None
        return marker_names(options.get("markers", []))
    section = re.split(r"(?m)^\[tool\.pytest\.ini_options\]", text, maxsplit=1)[1].split("\n[", 1)[0]
    block = re.search(r"(?ms)^markers\s*=\s*\[(.*?)\]", section)
    return marker_names(re.findall(r"[\"']([^\"']*)[\"']", block.group(1))) if block else []


def pytest_configured(target: Path) -> tuple[str | None, list[str]]:
    """The file that configures pytest already, if any (pytest reads the first it finds), and
    the markers registered: in that file, and by `config.addinivalue_line("markers", ...)` in
    the top conftest.py files."""
    configured, names = None, []
    for name, read in (("pytest.ini", lambda f: ini_markers(f, "pytest") or []),
                       (".pytest.ini", lambda f: ini_markers(f, "pytest") or []),
                       ("pyproject.toml", pyproject_markers),
                       ("tox.ini", lambda f: ini_markers(f, "pytest")),
                       ("setup.cfg", lambda f: ini_markers(f, "tool:pytest"))):
        if (target / name).is_file():
            found = read(target / name)
            if found is not None:
                configured, names = name, found
                break
    for conftest in (target / "conftest.py", target / "tests" / "conftest.py"):
        if conftest.is_file():
            names += re.findall(r"addinivalue_line\(\s*[\"']markers[\"']\s*,\s*[\"']\s*([A-Za-z_][A-Za-z0-9_]*)",
                                conftest.read_text(encoding="utf-8", errors="replace"))
    return configured, list(dict.fromkeys(names))


def render_conftest(configured: str, missing: dict) -> str:
    lines = "\n".join(f'    config.addinivalue_line("markers", "{name}: {text}")' for name, text in missing.items())
    return f'''"""Registers the pytest markers that gatekit's selections (.github/gatekit/suite.yml) name and
{configured} does not: suite-report collects every leg with --strict-markers, where an
unregistered marker in -m is an error. Written by gatekit-init; move the markers into
{configured} and delete this file if you prefer."""


def pytest_configure(config):
{lines}
'''


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
    p.add_argument("--gpu-markers", default="",
                   help="the pytest markers of the GPU tests, comma-separated (default: the device markers the "
                        "project registers, such as gpu, rocm or cuda, else gpu)")
    o = p.parse_args(argv)
    if not SHA.match(o.gatekit_sha):
        raise Refusal(f"--gatekit-sha: '{o.gatekit_sha}' is not a full commit SHA (40 lowercase hex digits)")
    o.python = checked(csv(o.python), VERSION, "--python")
    o.gpu_python = checked([o.gpu_python or o.python[-1]], VERSION, "--gpu-python")[0]
    o.gpu_paths = checked(csv(o.gpu_paths), GLOB, "--gpu-paths")
    for glob in [*o.gpu_paths, *([o.smokes] if o.smokes else [])]:
        if glob.startswith("/") or ".." in glob.split("/"):
            raise Refusal(f"--gpu-paths, --smokes: '{glob}' is not a path inside the repository")
    o.gpu_markers = checked(csv(o.gpu_markers), MARKER, "--gpu-markers") if o.gpu_markers else []
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


def used_device_markers(target: Path) -> list[str]:
    """The device markers the tests carry (`@pytest.mark.cuda`, `pytestmark = pytest.mark.rocm`),
    registered or not: a project that marks its GPU tests without registering the marker."""
    used = set()
    for folder in ("tests", "test"):
        for path in sorted((target / folder).rglob("*.py"))[:5000] if (target / folder).is_dir() else []:
            try:
                text = path.read_text(encoding="utf-8", errors="replace")[:1_000_000]
            except OSError:
                continue
            used.update(re.findall(r"\bmark\.(" + "|".join(DEVICE_MARKERS) + r")\b", text))
    return [name for name in DEVICE_MARKERS if name in used]


def check_target(target: Path) -> Path:
    """The target as git sees it: an existing folder, the root of a git repository (git's own
    answer, not a `.git` entry's presence). Its real path."""
    if not os.path.lexists(target):
        raise Refusal(f"--target: {target} does not exist")
    if not target.exists():
        raise Refusal(f"--target: {target} is a symbolic link to a missing path")
    if not target.is_dir():
        raise Refusal(f"--target: {target} is not a folder")
    done = subprocess.run(["git", "-C", str(target), "rev-parse", "--show-toplevel"], capture_output=True, text=True)
    if done.returncode != 0:
        raise Refusal(f"--target: {target} is not a git repository (git: {done.stderr.strip() or done.returncode})")
    root = Path(done.stdout.strip()).resolve()
    if root != target.resolve():
        raise Refusal(f"--target: {target} is inside the git repository {root}, not its root: give the root")
    return target.resolve()


def not_writable(folder: Path) -> str | None:
    if os.access(folder, os.W_OK | os.X_OK):
        return None
    try:
        read_only = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        read_only = False
    return "a read-only file system" if read_only else "no permission to write there"


def check_places(target: Path, files: list[str]) -> list[str]:
    """Every file can be written where it goes, and none is there yet: the folders on the way
    are real folders inside the repository (no file, no symbolic link in the way), the first
    existing one writable. Returns the files that exist already (a symbolic link counts, even
    one to a missing path); refuses (exit 2) what no move of a file would fix."""
    existing = []
    for rel in files:
        folder = target
        for part in rel.split("/")[:-1]:
            folder = folder / part
            shown = folder.relative_to(target)
            if folder.is_symlink():
                raise Refusal(f"{shown} is a symbolic link: gatekit-init writes only into real folders of the "
                              f"repository ({rel} would go through it)")
            if folder.exists() and not folder.is_dir():
                raise Refusal(f"{shown} is a file where {rel} needs a folder")
        path = target / rel
        if os.path.lexists(path):
            existing.append(rel + (" (a symbolic link to a missing path)" if path.is_symlink() and not path.exists()
                                   else " (a symbolic link)" if path.is_symlink() else ""))
        writable_at = path.parent
        while not writable_at.exists():
            writable_at = writable_at.parent
        if (why := not_writable(writable_at)) is not None:
            raise Refusal(f"cannot write {rel}: {writable_at} is not writable ({why})")
    return existing


def write_all(target: Path, files: dict) -> None:
    """Writes every file, or none: on a failure it removes the files and folders it made."""
    made_files, made_folders = [], []
    try:
        for rel, text in files.items():
            path = target / rel
            missing = []
            folder = path.parent
            while not folder.exists():
                missing.append(folder)
                folder = folder.parent
            for folder in reversed(missing):
                folder.mkdir()
                made_folders.append(folder)
            with open(path, "x", encoding="utf-8") as out:  # "x": never over a file made meanwhile
                made_files.append(path)
                out.write(text)
    except OSError as error:
        for path in reversed(made_files):
            path.unlink(missing_ok=True)
        for folder in reversed(made_folders):
            try:
                folder.rmdir()
            except OSError:
                pass
        raise WriteFailed(f"cannot write {error.filename or rel}: {error.strerror or error}; nothing was kept "
                          "(the files written before it were removed)") from None


def main(argv: list[str]) -> int:
    try:
        o = parse(argv)
        target = check_target(Path(o.target))
        configured, registered = pytest_configured(target)
        if not o.gpu_markers:
            found = set(registered) | set(used_device_markers(target))
            o.gpu_markers = [name for name in DEVICE_MARKERS if name in found] or ["gpu"]
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
        missing = {name: text for name, text in wanted_markers(o).items() if name not in registered}
        if configured is None:
            files["pytest.ini"] = render_pytest_ini(o)
        elif missing and not os.path.lexists(target / "conftest.py"):
            files["conftest.py"] = render_conftest(configured, missing)
        existing = check_places(target, list(files))
        if existing:
            raise Refusal("these files exist already; nothing was written (move them away, or merge by hand): "
                          + ", ".join(existing))
        write_all(target, files)
    except Refusal as refusal:
        print(f"gatekit-init: error: {refusal}", file=sys.stderr)
        return 2
    except WriteFailed as failure:
        print(f"gatekit-init: error: {failure}", file=sys.stderr)
        return 3
    for rel in files:
        print(f"wrote {rel}")
    print(f"the GPU tests' markers: {', '.join(o.gpu_markers)} (the GPU leg runs `{marker_expression(o.gpu_markers, False)}`, "
          f"the CPU legs `{marker_expression(o.gpu_markers, True)}`)")
    if "conftest.py" in files:
        print(f"pytest is configured in {configured}, which does not register {', '.join(missing)}: conftest.py "
              f"registers them (suite-report collects with --strict-markers); or move them into {configured}")
    elif configured and missing:
        print(f"pytest is configured in {configured}: register these markers there (suite-report collects with "
              "--strict-markers, so every marker the selections name must be registered):")
        for name, text in missing.items():
            print(f"    {name}: {text}")
    elif configured:
        print(f"pytest is configured in {configured}, which registers every marker the selections name")
    print("next: commit these files, then require the checks listed in .github/gatekit/required-checks.txt")
    if o.gpu_gate:
        print("gate.yml posts gate/gpu with a GitHub App's token from the environment gatekit-gate: create "
              "both first (docs/gpu-gate.md, \"Setting up strict mode\", in gatekit)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
