"""What an operator follows (README.md's production lines, docs/deploy.md) renders and says what is so."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")


def code_blocks(text):
    """Return (info, lines) of every fenced block; fail on a fence that never closes.

    As CommonMark reads them: a closing fence is the fence's characters alone (no text after
    them), so "``` text" inside a block does not close it and the rest of the page turns into code.
    """
    blocks, inside, opened_at = [], None, 0
    for number, line in enumerate(text.splitlines(), 1):
        match = FENCE.match(line)
        if inside is None:
            if match:
                fence, info = match.groups()
                assert " " not in info.strip() and "`" not in info, \
                    "line %d opens a block with %r: text after a fence belongs on the next line" % (number, line)
                inside, opened_at, lines = (fence, info.strip()), number, []
        elif match and match.group(1)[0] == inside[0][0] and len(match.group(1)) >= len(inside[0]):
            assert not match.group(2).strip(), \
                "line %d does not close the block of line %d: text after a closing fence (%r)" % (
                    number, opened_at, line)
            blocks.append((inside[1], lines))
            inside = None
        else:
            lines.append(line)
    assert inside is None, "the block opened on line %d never closes" % opened_at
    return blocks


@pytest.mark.parametrize("name, text", [("docs/deploy.md", DEPLOY), ("README.md", README)])
def test_every_code_block_closes(name, text):
    assert code_blocks(text), name


def test_the_fence_check_catches_text_after_a_closing_fence():
    with pytest.raises(AssertionError):
        code_blocks("```text\nlog line\n``` If Redis lost the keys\n\n```sh\nls\n```\n")


def test_deploy_md_says_a_redis_restart_keeps_rooms_only_with_persistence():
    words = " ".join(DEPLOY.split())
    assert "no persistence needed" not in words
    assert "keep the default snapshots" in words and "appendonly yes" in words
    assert "Without persistence (`save \"\"`, `--save \"\"`) a restarted Redis starts empty and **every room ends**" in words
