"""Releases: `cmake --install`, scripts/check-glibc.sh and scripts/package-release.sh.

The install and packaging tests use the build under test ($GATEKIT_BUILD_DIR); the glibc
checks also compile small programs with the system's g++ to have ELF files whose needs are
known: one calling arc4random (glibc 2.36), one calling only old functions (glibc 2.34 since
__libc_start_main moved there), one linked statically.
"""
import hashlib
import os
import re
import subprocess
import tarfile
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("GATEKIT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BUILD = Path(os.environ["GATEKIT_BUILD_DIR"]).resolve()
VERSION = re.search(r"project\(gatekit VERSION ([0-9.]+)", (SOURCE / "CMakeLists.txt").read_text()).group(1)
TOOLS = sorted(p.parent.name for p in SOURCE.glob("tools/*/CMakeLists.txt") if p.parent.name != "core")
ARCH = os.uname().machine
HOST_GLIBC = os.confstr("CS_GNU_LIBC_VERSION").split()[1]
CHECK = SOURCE / "scripts" / "check-glibc.sh"
PACK = SOURCE / "scripts" / "package-release.sh"


def run(*cmd, **kw):
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=600, **kw)


def compile_program(tmp_path: Path, name: str, body: str, *flags: str) -> Path:
    src = tmp_path / f"{name}.cpp"
    src.write_text("#include <cstdio>\n#include <cstdlib>\n#include <cstdint>\nint main() {\n" + body + "\n}\n")
    out = tmp_path / name
    done = run("g++", "-O0", *flags, src, "-o", out)
    assert done.returncode == 0, done.stderr
    return out


def test_cmake_install_puts_the_tools_in_bin_and_the_docs_in_share_doc(tmp_path):
    done = run("cmake", "--install", BUILD, "--prefix", tmp_path / "p")
    assert done.returncode == 0, done.stdout + done.stderr
    prefix = tmp_path / "p"
    assert sorted(p.name for p in (prefix / "bin").iterdir()) == TOOLS
    for tool in TOOLS:
        version = run(prefix / "bin" / tool, "--version")
        assert version.returncode == 0 and version.stdout.split()[-1] == VERSION, version.stdout + version.stderr
    docs = prefix / "share" / "doc" / "gatekit"
    for installed, source in [("README.md", "README.md"), ("LICENSE", "LICENSE"),
                              ("exit-codes.md", "docs/exit-codes.md"), ("contributing.md", "docs/contributing.md"),
                              ("actions/setup-gatekit.md", "docs/actions/setup-gatekit.md"),
                              ("guides/workflow-authors.md", "docs/guides/workflow-authors.md")]:
        assert (docs / installed).read_bytes() == (SOURCE / source).read_bytes(), installed
    assert (prefix / "share" / "gatekit" / "actions" / "setup-gatekit" / "checksums.txt").is_file()


def test_check_glibc_passes_a_program_within_the_baseline(tmp_path):
    exe = compile_program(tmp_path, "old", 'std::puts("hi"); return 0;')
    done = run("bash", CHECK, exe)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == ("| file | needs | for | glibc 2.34 baseline |\n| --- | --- | --- | --- |\n"
                           "| `old` | GLIBC_2.34 | `__libc_start_main` | ok |\n"
                           "check-glibc: each of the 1 files needs at most glibc 2.34\n")


def test_check_glibc_fails_a_program_that_needs_a_newer_glibc(tmp_path):
    exe = compile_program(tmp_path, "newer", 'std::printf("%u\\n", static_cast<unsigned>(arc4random()));')
    summary = tmp_path / "summary.md"
    done = run("bash", CHECK, exe, env={**os.environ, "GITHUB_STEP_SUMMARY": str(summary)})
    assert done.returncode == 1
    row = "| `newer` | GLIBC_2.36 | `arc4random` | ABOVE |\n"
    assert done.stdout == "| file | needs | for | glibc 2.34 baseline |\n| --- | --- | --- | --- |\n" + row
    assert done.stderr == ("check-glibc: some files need a glibc newer than 2.34: they would not start on every "
                           "system the release promises (build them on the release image, docs/contributing.md)\n")
    assert summary.read_text().startswith("### glibc symbol versions\n") and row in summary.read_text()


def test_check_glibc_fails_the_built_tools_under_a_lowered_baseline(tmp_path):
    tools = [BUILD / "tools" / t / t for t in TOOLS]
    done = run("bash", CHECK, "--baseline", "2.33", *tools)
    assert done.returncode == 1, done.stdout + done.stderr
    rows = done.stdout.splitlines()[2:]
    assert len(rows) == len(TOOLS)
    assert all(re.fullmatch(r"\| `[a-z-]+` \| GLIBC_2\.3[4-9]\S* \| `\S+` \| ABOVE \|", r) for r in rows), rows


def test_check_glibc_reads_every_executable_of_a_folder(tmp_path):
    folder = tmp_path / "bin"
    folder.mkdir()
    compile_program(folder, "a", "return 0;")
    compile_program(folder, "b", "return 0;")
    (folder / "notes.txt").write_text("not executable\n")
    done = run("bash", CHECK, folder)
    assert done.returncode == 0, done.stdout + done.stderr
    assert [r.split("|")[1].strip() for r in done.stdout.splitlines()[2:4]] == ["`a`", "`b`"]


def test_check_glibc_passes_a_static_program(tmp_path):
    exe = compile_program(tmp_path, "static", "return 0;", "-static")
    done = run("bash", CHECK, exe)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "| `static` | - | `-` | ok (no glibc symbol versions) |" in done.stdout


def test_check_glibc_cannot_evaluate_a_file_that_is_not_elf(tmp_path):
    text = tmp_path / "script.sh"
    text.write_text("#!/bin/sh\n")
    done = run("bash", CHECK, text)
    assert done.returncode == 3
    assert done.stderr == f"check-glibc: {text}: objdump cannot read its dynamic symbols: file format not recognized\n"
    assert done.stdout == ""


@pytest.mark.parametrize("args,message", [
    ([], "no file given"),
    (["--baseline", "2"], "--baseline must look like 2.34, got '2'"),
    (["--baseline"], "--baseline needs a value"),
    (["--strict", "x"], "unknown option '--strict'"),
])
def test_check_glibc_usage_errors_exit_2(args, message):
    done = run("bash", CHECK, *args)
    assert done.returncode == 2
    assert done.stderr == f"check-glibc: usage: check-glibc.sh [--baseline X.Y] FILE|DIR... ({message})\n"


def pack(out: Path, *args: str):
    return run("bash", PACK, "--build-dir", BUILD, "--no-build", "--out", out, *args)


def test_package_release_packs_the_stripped_install_tree_with_its_sums(tmp_path):
    out = tmp_path / "dist"
    done = pack(out, "--glibc-baseline", HOST_GLIBC, "--tag", f"v{VERSION}")
    assert done.returncode == 0, done.stdout + done.stderr
    name = f"gatekit-{VERSION}-linux-{ARCH}"
    archive = out / f"{name}.tar.gz"
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    assert sorted(p.name for p in out.iterdir()) == ["SHA256SUMS", archive.name]
    assert (out / "SHA256SUMS").read_text() == f"{digest}  {archive.name}\n"
    assert done.stdout.endswith(f"{VERSION} linux-{ARCH} {digest}\n")
    with tarfile.open(archive) as tar:
        names = tar.getnames()
        members = tar.getmembers()
        tar.extractall(tmp_path / "x")
    assert all(n == name or n.startswith(name + "/") for n in names)
    assert all(m.uid == 0 and m.gid == 0 for m in members)
    assert sorted(n.rsplit("/", 1)[1] for n in names if n.startswith(f"{name}/bin/")) == TOOLS
    assert f"{name}/share/doc/gatekit/exit-codes.md" in names
    for tool in TOOLS:
        exe = tmp_path / "x" / name / "bin" / tool
        sections = run("readelf", "-S", "-W", exe).stdout
        assert ".symtab" not in sections and ".debug_info" not in sections, f"{tool} is not stripped"
        assert run(exe, "--version").stdout.split()[-1] == VERSION
    again = pack(tmp_path / "again", "--glibc-baseline", HOST_GLIBC)
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "again" / archive.name).read_bytes() == archive.read_bytes()  # reproducible


def test_package_release_writes_nothing_when_a_tool_is_above_the_baseline(tmp_path):
    out = tmp_path / "dist"
    done = pack(out, "--glibc-baseline", "2.0")
    assert done.returncode == 1
    assert "| ABOVE |" in done.stdout
    assert not out.exists()


def test_package_release_refuses_a_tag_of_another_version(tmp_path):
    done = pack(tmp_path / "dist", "--tag", "v99.0.0")
    assert done.returncode == 2
    assert done.stderr == (f"package-release: tag v99.0.0 does not match the version in CMakeLists.txt ({VERSION}): "
                           f"tag v{VERSION}, or change the version first\n")
    assert not (tmp_path / "dist").exists()


def test_package_release_usage_error_exits_2(tmp_path):
    done = run("bash", PACK, "--bogus")
    assert done.returncode == 2
    assert done.stderr == ("package-release: unknown argument '--bogus' (usage: package-release.sh [--build-dir DIR] "
                           "[--out DIR] [--no-build] [--tag TAG] [--glibc-baseline X.Y])\n")
