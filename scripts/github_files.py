"""Reading the files a GitHub Actions step writes: GITHUB_OUTPUT (`name=value` lines and
`name<<DELIMITER` heredoc entries). Used by the main job (scripts/demo.py) and the Python tests."""
from pathlib import Path


def read_outputs(path: Path) -> dict:
    """Parses GITHUB_OUTPUT into {name: value}; a missing file is no outputs. A heredoc
    entry's value is the lines up to its delimiter line, joined with newlines."""
    path = Path(path)
    values, lines, i = {}, path.read_text().splitlines() if path.exists() else [], 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            body = []
            i += 1
            while i < len(lines) and lines[i] != delimiter:
                body.append(lines[i])
                i += 1
            values[name] = "\n".join(body)
        elif "=" in line:
            name, value = line.split("=", 1)
            values[name] = value
        i += 1
    return values
