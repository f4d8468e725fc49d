"""scripts/setup-venv installs only when needed: a restart with a complete .venv needs no network.

Runs the real script in a folder of its own with a stand-in .venv whose Python records every
`pip install` instead of running it (and runs anything else with this interpreter).
"""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FAKE_PYTHON = """#!/usr/bin/env bash
if [ "$1 $2" = "-m pip" ]; then
  echo "$*" >>"{log}"
  [ -e "{fail}" ] && exit 1
  exit 0
fi
exec "{python}" "$@"
"""


@pytest.fixture
def project(tmp_path):
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "setup-venv", tmp_path / "scripts" / "setup-venv")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    python = bin_dir / "python"
    python.write_text(FAKE_PYTHON.format(log=tmp_path / "pip.log", fail=tmp_path / "pip-fails",
                                         python=sys.executable))
    python.chmod(0o755)
    (bin_dir / "pip").write_text("#!/bin/sh\nexit 0\n")
    (bin_dir / "pip").chmod(0o755)
    return tmp_path


def setup_venv(project, *extras, environment=None):
    """Run scripts/setup-venv; return the pip installs it ran."""
    log = project / "pip.log"
    log.unlink(missing_ok=True)
    env = {"PATH": "/usr/bin:/bin", "PYTHON": sys.executable, **(environment or {})}
    done = subprocess.run(["bash", "scripts/setup-venv", *extras], cwd=project, env=env,
                          capture_output=True, text=True)
    return done.returncode, (log.read_text().splitlines() if log.exists() else []), done.stderr


def installs(project, *extras):
    code, calls, stderr = setup_venv(project, *extras)
    assert code == 0, stderr
    return [call.split()[-1] for call in calls]


def test_a_second_start_installs_nothing(project):
    assert installs(project) == ["."]
    assert installs(project) == []
    assert installs(project) == []


def test_the_test_extra_after_a_start_installs_it_and_a_start_after_tests_installs_nothing(project):
    assert installs(project) == ["."]
    assert installs(project, "test") == [".[test]"]
    assert installs(project) == []
    assert installs(project, "test") == []
    assert installs(project, "tools") == [".[test,tools]"]  # the extras already in stay in
    assert installs(project, "test") == []


def test_a_changed_pyproject_installs_again_with_the_extras_asked_for(project):
    assert installs(project, "test") == [".[test]"]
    with open(project / "pyproject.toml", "a") as pyproject:
        pyproject.write("\n# a new dependency\n")
    assert installs(project) == ["."]
    assert installs(project) == []
    assert installs(project, "test") == [".[test]"]


def test_a_code_change_installs_nothing(project):
    assert installs(project) == ["."]
    (project / "server").mkdir()
    (project / "server" / "new_module.py").write_text("X = 1\n")
    assert installs(project) == []


def test_a_failed_install_leaves_no_stamp_and_the_next_run_installs(project):
    (project / "pip-fails").write_text("")
    code, calls, _ = setup_venv(project)
    assert code != 0 and len(calls) == 1
    assert not (project / ".venv" / "spieleabend-installed").exists()
    (project / "pip-fails").unlink()
    assert installs(project) == ["."]
    assert installs(project) == []


def test_the_reinstall_can_be_forced(project):
    assert installs(project) == ["."]
    code, calls, stderr = setup_venv(project, environment={"SPIELEABEND_REINSTALL": "1"})
    assert code == 0, stderr
    assert [call.split()[-1] for call in calls] == ["."]


def test_start_and_test_go_through_setup_venv():
    assert "scripts/setup-venv\n" in (ROOT / "scripts" / "start").read_text()
    assert "scripts/setup-venv test" in (ROOT / "scripts" / "test").read_text()
