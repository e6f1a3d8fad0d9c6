"""The release settings, read from their one source: the `release` configure preset of
CMakePresets.json. The wheel (pyproject.toml) and the Homebrew formula build with that preset;
tests/packaging/test_release_settings.py and tests/wheel/test_wheel.py compare what each of
them configures with it."""
import json
import re
from pathlib import Path


def preset_cache_variables(source: Path, name: str = "release") -> dict:
    """The cache variables of configure preset `name`, its `inherits` chain applied (a preset's
    own value wins over an inherited one). Values as CMake stores them: a bool as ON/OFF, an
    object {"type", "value"} as its value."""
    presets = {p["name"]: p for p in json.loads((source / "CMakePresets.json").read_text())["configurePresets"]}

    def resolve(preset_name: str, seen: tuple) -> dict:
        if preset_name in seen:
            raise AssertionError(f"CMakePresets.json: preset {preset_name} inherits itself")
        preset = presets[preset_name]
        parents = preset.get("inherits", [])
        merged = {}
        for parent in reversed([parents] if isinstance(parents, str) else parents):
            merged.update(resolve(parent, seen + (preset_name,)))
        for key, value in preset.get("cacheVariables", {}).items():
            if isinstance(value, dict):
                value = value["value"]
            if isinstance(value, bool):
                value = "ON" if value else "OFF"
            merged[key] = value
        return merged

    return resolve(name, ())


def cmake_cache(build: Path) -> dict:
    """NAME -> VALUE of the entries of BUILD/CMakeCache.txt."""
    entries = {}
    for line in (build / "CMakeCache.txt").read_text().splitlines():
        found = re.match(r"^([^#/][^:=]*)(?::[A-Z]+)?=(.*)$", line)
        if found:
            entries[found.group(1)] = found.group(2)
    return entries


def differences(wanted: dict, got: dict) -> dict:
    """NAME -> (wanted value, value in `got` or None) for each setting `got` does not match."""
    return {name: (value, got.get(name)) for name, value in wanted.items() if got.get(name) != value}
