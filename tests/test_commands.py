"""Every command tried as a new user would (issue 33, finding 8): bad arguments, missing and
garbage files, a missing optional extra, a refusing server.

Each command runs in its own process (``python -m tichu.cli.NAME``, which is what its console
script calls). A bad argument is one line on stderr naming it and exit status 2; a failure while
the command runs is one line and exit status 1; no traceback unless ``--debug``. A command that
reports per file or per line (``tichu-replay``, ``tichu-bsw-import``) says the problem on stdout
in that report, with nothing on stderr.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.process_server import ProcessServer

ROOT = Path(__file__).resolve().parents[1]

#: Seconds a command may take; generous for a loaded machine (the cases need well under one).
DEADLINE = 120

#: The commands of pyproject.toml and their modules.
COMMANDS: dict[str, str] = {name: target.split(":")[0] for name, target in
                            tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
                            .items()}

#: Modules that stand in for a missing optional extra: importing one fails as if not installed.
BLOCKED_MODULES = ("pyspiel", "numpy")

#: A line of the server's log (``2026-01-01 12:00:00,000 INFO ...``), not a message to the user.
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} [A-Z]+ ")


@dataclass(frozen=True)
class Case:
    """A command with bad input and what it must answer.

    :ivar command: The command's name (``tichu-arena``).
    :ivar args: Its arguments; ``{tmp}`` stands for a folder with the files below.
    :ivar status: The exit status.
    :ivar says: A part of the one line that names the problem.
    :ivar on_stdout: The problem is said in the command's report on stdout, stderr stays empty.
    :ivar env: A setting of the environment, ``NAME=VALUE`` (``""``: none).
    :ivar blocked: Run as if the module of an optional extra were not installed (one of
        :data:`BLOCKED_MODULES`, or ``""``: nothing blocked).
    """

    command: str
    args: str
    status: int
    says: str
    on_stdout: bool = False
    env: str = ""
    blocked: str = ""


CASES = [
    Case("tichu-arena", "--games 2 --no-progress foo bar", 2, "unknown agent 'foo'"),
    Case("tichu-arena", "--games 2 --no-progress montecarlo:abc random", 2, "bad setting 'abc' for 'montecarlo'"),
    Case("tichu-arena", "--games -5 --no-progress", 2, "--games: must be at least 1, not -5"),
    Case("tichu-arena", "--games 2 --workers 0", 2, "--workers: must be at least 1, not 0"),
    Case("tichu-arena", "--games 2 --target ten", 2, "--target: not a whole number: 'ten'"),
    Case("tichu-arena", "--games 2 random random random", 2, "name four agents"),
    Case("tichu-arena", "--games 2 --sprt 5 0", 2, "--sprt needs ELO0 < ELO1"),
    Case("tichu-arena", "--games 2 policy:tests.learn.policies:nothing random", 2, "no policy factory"),
    Case("tichu-arena", "--games 2 policy:tests.learn.policies:random_policy random", 2,
         "needs the optional extra 'learn'", blocked="numpy"),
    Case("tichu-replay", "{tmp}/missing.jsonl", 2, "no such file or folder: "),
    Case("tichu-replay", "{tmp}", 2, "not a file: "),
    Case("tichu-replay", "{tmp}/text.tch", 2, "is a Brettspielwelt log, not a record file: tichu-bsw-import"),
    Case("tichu-replay", "{tmp}/garbage.jsonl", 1, "garbage.jsonl:1: skipped, not JSON", on_stdout=True),
    Case("tichu-bsw-import", "{tmp}/bytes.tch", 1, "bytes.tch: import failed: not a text file", on_stdout=True),
    Case("tichu-bsw-import", "{tmp}/text.tch", 1, "text.tch: import failed: line 1: format", on_stdout=True),
    Case("tichu-bsw-import", "{tmp}/missing", 2, "no such file or folder: "),
    Case("tichu-bsw-import", "{tmp}/empty", 1, "no .tch files in "),
    Case("tichu-analyse", "{tmp}/bytes.tch", 1, "bytes.tch: not a text file (byte 8 cannot be decoded)"),
    Case("tichu-analyse", "{tmp}/text.tch", 1, "text.tch: line 1: format"),
    Case("tichu-analyse", "{tmp}/garbage.jsonl", 1, "garbage.jsonl:1: not JSON"),
    Case("tichu-analyse", "{tmp}/missing.tch", 2, "no such file or folder: "),
    Case("tichu-analyse", "{tmp}/garbage.jsonl --samples 1", 2, "--samples: must be at least 2, not 1"),
    Case("tichu-analyse", "{tmp}/garbage.jsonl --index -1", 2, "--index: must be at least 0, not -1"),
    Case("tichu-analyse", "{tmp}/garbage.jsonl --seats 0,7", 2, "seats are 0..3"),
    Case("tichu-analyse", "{tmp}/garbage.jsonl --seats x", 2, "seats are 0..3"),
    Case("tichu-server", "--port 99999", 2, "--port: must be 1..65535, not 99999"),
    Case("tichu-server", "--port eighty", 2, "--port: not a whole number"),
    Case("tichu-server", "", 2, "bad setting: TICHU_PORT='eighty' is not a valid int", env="TICHU_PORT=eighty"),
    Case("tichu-server", "", 2, "bad setting: TICHU_TARGET_SCORE='-5' is not a valid int",
         env="TICHU_TARGET_SCORE=-5"),
    Case("tichu-server", "", 2, "bad setting: TICHU_MAX_TABLES=0 is not 1 or more", env="TICHU_MAX_TABLES=0"),
    Case("tichu-client", "--port 99999 --name Anna --table t", 2, "--port: must be 1..65535, not 99999"),
    Case("tichu-client", "--name Anna --table t --think -1", 2, "--think: must be 0..60, not -1"),
    Case("tichu-client", "--name Anna --table t --think nan", 2, "--think: must be 0..60, not nan"),
    Case("tichu-client", "--name Anna --table t --games -1", 2, "--games: must be at least 0"),
    Case("tichu-client", "--name Anna", 2, "give --name and --table, or --session-id"),
    Case("tichu-client", "--port 1 --name Anna --table t --agent random", 1, "cannot connect to 127.0.0.1:1"),
    Case("tichu-import", "--db {tmp}/db.sqlite3 {tmp}/missing.jsonl", 2, "no such file or folder: "),
    Case("tichu-import", "--db {tmp}/db.sqlite3 {tmp}/text.tch", 2, "tichu-bsw-import"),
    Case("tichu-export", "--db {tmp}/missing.sqlite3 --out {tmp}/out.jsonl", 1, "no database at "),
    Case("tichu-export", "--db {tmp}/missing.sqlite3", 2, "the following arguments are required: --out"),
    Case("tichu-training-data", "{tmp}/missing.jsonl --out {tmp}/t.npz", 2, "no such file or folder: "),
    Case("tichu-training-data", "{tmp}/bytes.tch --out {tmp}/t.npz", 1, "bytes.tch: not a text file"),
    Case("tichu-training-data", "{tmp}/garbage.jsonl --out {tmp}/t.npz --rows-per-file 0", 2,
         "--rows-per-file: must be at least 1, not 0"),
    Case("tichu-training-data", "{tmp}/garbage.jsonl --out {tmp}/t.npz", 1,
         "needs the optional extra 'learn' (cannot import numpy): pip install 'tichu[learn]'", blocked="numpy"),
    Case("tichu-spiel-arena", "foo", 2, "unknown agent 'foo'"),
    Case("tichu-spiel-arena", "--pairs -1 random", 2, "--pairs: must be at least 1, not -1"),
    Case("tichu-spiel-arena", "--simulations 0 random", 2, "--simulations: must be at least 1"),
    Case("tichu-spiel-arena", "random", 1,
         "needs the optional extra 'spiel' (cannot import pyspiel): pip install 'tichu[spiel]', "
         "or in a checkout .venv/bin/pip install -e '.[spiel]'", blocked="pyspiel"),
]


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the bad inputs: a ``.tch`` of bytes that are no text, a ``.tch`` of text
    that is no log, a ``.jsonl`` that is no JSON, a folder without logs, and a blocker for
    each optional extra's module."""
    folder = tmp_path_factory.mktemp("inputs")
    (folder / "bytes.tch").write_bytes(b"Runde 1\n\x81\x8d\x8f\x90\x9d" * 20)
    (folder / "text.tch").write_text("this is no Brettspielwelt log\n" * 700, encoding="utf-8")
    (folder / "garbage.jsonl").write_text("not json\n", encoding="utf-8")
    (folder / "empty").mkdir()
    for module in BLOCKED_MODULES:
        blocked = folder / f"without-{module}"
        blocked.mkdir()
        (blocked / f"{module}.py").write_text(
            f"raise ImportError('{module} is not installed (a test blocks it)', name='{module}')\n", encoding="utf-8")
    return folder


def run(command: str, args: list[str], cwd: Path, *, blocked: tuple[Path, ...] = (),
        env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run a command of pyproject.toml as its console script does, from ``cwd``.

    :param blocked: Folders put first on the import path (their modules shadow the real ones).
    """
    path = [str(folder) for folder in blocked]
    environment = {**os.environ, **(env or {}), "PYTHONPATH": os.pathsep.join([*path, str(ROOT / "src"), str(ROOT)])}
    return subprocess.run([sys.executable, "-m", COMMANDS[command], *args], capture_output=True, text=True,
                          timeout=DEADLINE, check=False, cwd=cwd, env=environment)


def assert_one_line(done: subprocess.CompletedProcess[str], command: str, says: str) -> None:
    """Exactly one line on stderr (log lines of a server aside), naming the command and the problem."""
    said = [line for line in done.stderr.splitlines() if not LOG_LINE.match(line)]
    assert len(said) == 1, done.stderr
    assert said[0].startswith(f"{command}: ") and says in said[0], said[0]


@pytest.mark.parametrize("case", CASES, ids=[" ".join(filter(None, (case.env, case.command, case.args)))
                                              for case in CASES])
def test_a_bad_input_is_one_line_and_its_exit_status(case: Case, inputs: Path) -> None:
    """issue 33, finding 8: each bad input of the table ends in one line naming the problem and
    the exit status 2 (a bad argument) or 1 (a failure while running), never a traceback."""
    args = shlex.split(case.args.format(tmp=inputs))
    env = dict([case.env.split("=", 1)]) if case.env else {}
    done = run(case.command, args, inputs, blocked=(inputs / f"without-{case.blocked}",) if case.blocked else (),
               env=env)
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    assert done.returncode == case.status, done.stdout + done.stderr
    if case.on_stdout:
        assert done.stderr == "" and case.says in done.stdout, done.stdout + done.stderr
        assert len(done.stdout.splitlines()) <= 3, done.stdout
    else:
        assert_one_line(done, case.command, case.says)


def test_every_command_has_a_case() -> None:
    """issue 33, finding 8: the table tries every command of pyproject.toml."""
    assert {case.command for case in CASES} == set(COMMANDS)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_help_works_without_the_optional_extras(command: str, inputs: Path) -> None:
    """issue 33, finding 8: ``--help`` of every command works with OpenSpiel and numpy missing
    (``tichu-spiel-arena --help`` was a traceback), names the command and offers ``--debug``."""
    done = run(command, ["--help"], inputs, blocked=tuple(inputs / f"without-{module}" for module in BLOCKED_MODULES))
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.startswith(f"usage: {command} ") and "--debug" in done.stdout


def test_debug_shows_the_traceback(inputs: Path) -> None:
    """issue 33, finding 8: ``--debug`` is how a developer sees the traceback of a failure."""
    done = run("tichu-analyse", [str(inputs / "bytes.tch"), "--debug"], inputs)
    assert done.returncode == 1 and "Traceback" in done.stderr
    assert "bytes.tch: not a text file" in done.stderr.splitlines()[-1]


@pytest.mark.slow
async def test_refused_client_and_a_taken_port_exit_1(tmp_path: Path) -> None:
    """issue 33, finding 8: ``tichu-client`` refused by a real server (a name too long, an unknown
    session) exits 1 with the server's reason in one line (it exited 0); a second server on the
    same port is one line and exit status 1, not a traceback."""
    server = ProcessServer(tmp_path / "data", {})
    await server.start()
    try:
        port = str(server.port)
        refused = run("tichu-client", ["--port", port, "--name", "A" * 30, "--table", "t", "--agent", "random"],
                      tmp_path)
        assert refused.returncode == 1 and refused.stdout == "", refused.stdout + refused.stderr
        assert_one_line(refused, "tichu-client", "refused by the server: player_name must have 1 to 20 characters")
        unknown = run("tichu-client", ["--port", port, "--session-id", "00000000-0000-4000-8000-000000000000"],
                      tmp_path)
        assert unknown.returncode == 1, unknown.stdout + unknown.stderr
        assert_one_line(unknown, "tichu-client", "refused by the server: ")
        taken = run("tichu-server", ["--host", "127.0.0.1", "--port", port], tmp_path,
                    env={"TICHU_DATA_DIR": str(tmp_path / "other")})
        assert taken.returncode == 1 and "Traceback" not in taken.stderr, taken.stderr
        assert_one_line(taken, "tichu-server", "address already in use")
    finally:
        await server.close()


def readme_commands() -> list[list[str]]:
    """The README's command lines of the project's commands, in order: each line of a ``bash``
    block and each inline code span that starts with a command's name (comments dropped)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.findall(r"^(tichu-[a-z-]+ [^\n#]*)|`(tichu-[a-z-]+ [^`]*)`", text, flags=re.MULTILINE)
    return [shlex.split(block or inline) for block, inline in found]


def test_readme_examples_read_what_an_earlier_example_wrote() -> None:
    """issue 33, finding 8: the README's ``tichu-replay data/records/arena.jsonl`` failed on a fresh
    clone (no example wrote that file). Every record file an example reads (outside ``../shared``)
    is written by an example above it, and every ``tichu-client`` example names a table."""
    commands = readme_commands()
    assert {"tichu-arena", "tichu-replay", "tichu-client"} <= {command[0] for command in commands}
    written: set[str] = set()
    for command in commands:
        outputs = {value for flag, value in zip(command, command[1:]) if flag in ("--records", "--out")}
        reads = {arg for arg in command[1:] if arg.endswith(".jsonl") and not arg.startswith("../shared")} - outputs
        written |= outputs
        assert reads <= written, f"{' '.join(command)} reads a file no example above writes"
        if command[0] == "tichu-client":
            assert "--session-id" in command or {"--name", "--table"} <= set(command), " ".join(command)
