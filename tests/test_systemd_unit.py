"""The systemd unit shipped in ``docs/systemd/`` (docs/raspberry-pi.md): its hardening is all
there, it starts a script of the repository, it may write only the data folder, and
``systemd-analyze verify`` accepts it where systemd's tools are installed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNITS = ROOT / "docs" / "systemd"
SERVICE = UNITS / "tichu.service"
#: Where docs/raspberry-pi.md puts the checkout; the unit's paths start with it.
INSTALL = "/opt/tichu"

#: Directives that must be there, with their exact values.
HARDENING = {
    "NoNewPrivileges": "yes",
    "ProtectSystem": "strict",
    "ProtectHome": "yes",
    "PrivateTmp": "yes",
    "PrivateDevices": "yes",
    "ProtectKernelTunables": "yes",
    "ProtectKernelModules": "yes",
    "ProtectKernelLogs": "yes",
    "ProtectControlGroups": "yes",
    "RestrictAddressFamilies": "AF_INET AF_INET6 AF_UNIX",
    "RestrictNamespaces": "yes",
    "LockPersonality": "yes",
    "MemoryDenyWriteExecute": "yes",
    "CapabilityBoundingSet": "",
    "UMask": "0077",
    "Restart": "on-failure",
    "StandardOutput": "journal",
    "User": "tichu",
}
#: Directives that must be there with some value.
PRESENT = ("RestartSec", "MemoryMax", "TasksMax", "LimitNOFILE", "WorkingDirectory", "EnvironmentFile")


def parse_unit(path: Path) -> dict[str, dict[str, list[str]]]:
    """Read a unit file: section -> directive -> its values in order (a directive may repeat).

    Comments (``#``, ``;``) and blank lines are skipped; a line ending in ``\\`` continues.

    :param path: The unit file.
    :returns: The directives by section.
    """
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    pending = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = pending + raw.strip()
        pending = ""
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        assert current is not None, f"{path.name}: {line!r} comes before any section"
        key, separator, value = line.partition("=")
        assert separator, f"{path.name}: {line!r} is no directive"
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


def service() -> dict[str, list[str]]:
    """The ``[Service]`` section of ``tichu.service``."""
    return parse_unit(SERVICE)["Service"]


def repository_path(unit_path: str) -> Path:
    """The file in this checkout that a path of the unit (under :data:`INSTALL`) names."""
    assert unit_path.startswith(INSTALL + "/") or unit_path == INSTALL, unit_path
    return ROOT / unit_path[len(INSTALL):].lstrip("/")


def test_the_service_has_all_its_hardening() -> None:
    """Every directive of :data:`HARDENING` with its value, those of :data:`PRESENT` with one."""
    found = service()
    for key, value in HARDENING.items():
        assert key in found, f"{key}= is missing"
        assert found[key][-1] == value, f"{key}={found[key][-1]!r}, expected {value!r}"
    for key in PRESENT:
        assert key in found and found[key][-1], f"{key}= is missing or empty"
    assert "@system-service" in found["SystemCallFilter"]
    assert not found.get("AmbientCapabilities", [""])[-1]


def test_the_service_starts_a_script_of_the_repository() -> None:
    """``ExecStart`` runs ``bin/start`` of the checkout, which exists and is executable."""
    command = service()["ExecStart"][-1].split()
    script = repository_path(command[0])
    assert script == ROOT / "bin" / "start"
    assert script.is_file() and script.stat().st_mode & 0o111
    assert repository_path(service()["WorkingDirectory"][-1]) == ROOT


def test_the_service_may_write_only_the_data_folder() -> None:
    """``ReadWritePaths`` names the data folder and nothing else; the server's default
    ``TICHU_DATA_DIR`` (``data``, relative to ``WorkingDirectory``) is that folder."""
    paths = " ".join(service()["ReadWritePaths"]).split()
    assert [repository_path(path) for path in paths] == [ROOT / "data"]
    from tichu.server.config import Settings
    assert Settings().data_dir == Path("data")


def test_the_memory_cap_and_descriptors_fit_the_server_limits() -> None:
    """``LimitNOFILE`` leaves room for ``TICHU_MAX_CONNECTIONS`` twice over (refused sockets,
    files, workers), and ``MemoryMax`` is at least 256 MiB (idle the server holds about 40)."""
    from tichu.server.config import Settings
    found = service()
    assert int(found["LimitNOFILE"][-1]) >= 2 * Settings().max_connections + 100
    cap = found["MemoryMax"][-1]
    assert cap.endswith("M") and int(cap[:-1]) >= 256


def test_the_health_check_units_parse() -> None:
    """The health-check pair: the service asks ``/healthz``, the timer starts it."""
    check = parse_unit(UNITS / "tichu-health.service")["Service"]
    assert "/healthz" in check["ExecStart"][-1] and check["Type"] == ["oneshot"]
    assert "OnUnitActiveSec" in parse_unit(UNITS / "tichu-health.timer")["Timer"]


def test_systemd_analyze_verifies_the_units(tmp_path: Path) -> None:
    """``systemd-analyze verify`` of the units, with :data:`INSTALL` pointed at this checkout
    (verify checks that ``ExecStart`` exists)."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed on this machine")
    copies = []
    for unit in sorted(UNITS.glob("tichu*.*")):
        copy = tmp_path / unit.name
        copy.write_text(unit.read_text(encoding="utf-8").replace(INSTALL, str(ROOT)), encoding="utf-8")
        copies.append(str(copy))
    result = subprocess.run([analyze, "verify", *copies], capture_output=True, text=True, timeout=60,
                            check=False)
    # Lines about other units of the machine (e.g. a missing network-online.target in a
    # container) are not ours; every line that names one of our units is a finding.
    ours = [line for line in (result.stdout + result.stderr).splitlines() if "tichu" in line]
    assert not ours, "\n".join(ours)
