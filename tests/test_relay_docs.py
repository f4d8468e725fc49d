"""docs/rooms.md stays in step with the relay: an example of every frame, every error's close code."""

import json
import re
from pathlib import Path

from server.relay import ALL_TYPES, CLOSE_CODES, END_CLOSE_CODES, PROTOCOL_VERSION

DOC = (Path(__file__).resolve().parent.parent / "docs" / "rooms.md").read_text(encoding="utf-8")

SERVER_TYPES = {"created", "joined", "resumed", "looked", "msg", "presence", "closed", "error",
                "joining", "pong", "pin_locked", "pin"}


def json_examples():
    """Return every ```json block of the document, parsed."""
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", DOC, re.S)]


def table_rows(first_header):
    """Return the cells of each row of the table whose first header cell is given."""
    table = DOC.split("| %s |" % first_header, 1)[1].split("\n\n", 1)[0]
    rows = [line.strip("|").split("|") for line in table.splitlines()[2:] if line.startswith("|")]
    return [[cell.strip().strip("`") for cell in row] for row in rows]


def test_every_frame_type_has_an_example():
    examples = json_examples()
    assert {frame["type"] for frame in examples} == ALL_TYPES | SERVER_TYPES
    hellos = [f for f in examples if f["type"] in ("create", "join", "resume", "look")]
    assert hellos and all(f["v"] == PROTOCOL_VERSION for f in hellos)


def test_every_error_code_is_documented_with_its_close_code():
    documented = {row[0]: int(row[-1]) for row in table_rows("code")}
    assert documented == CLOSE_CODES


def test_every_closing_reason_is_documented_with_its_close_code():
    documented = {row[0]: int(row[-1]) for row in table_rows("reason")}
    assert documented == END_CLOSE_CODES


def test_every_config_key_is_documented():
    from server.relay import DEFAULTS

    section = DOC.split("## Configuration", 1)[1]
    assert [key for key in DEFAULTS if "`%s`" % key not in section] == []
