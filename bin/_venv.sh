# Sourced by bin/start and bin/test: create or reuse .venv and install the project into it.
# Reinstalls only when pyproject.toml changed (a stamp file remembers its hash).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "Python >= 3.11 is needed (found: $("$PYTHON" --version 2>&1)); set PYTHON=/path/to/python3.11" >&2
    exit 1
fi
VENV="$ROOT/.venv"
[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
EXTRAS="${1:-}"
STAMP="$VENV/.installed-$(cat "$ROOT/pyproject.toml" | sha256sum | cut -c1-16)${EXTRAS:+-$EXTRAS}"
if [ ! -f "$STAMP" ]; then
    "$VENV/bin/python" -m pip install --quiet --upgrade pip
    "$VENV/bin/python" -m pip install --quiet -e "$ROOT${EXTRAS:+[$EXTRAS]}"
    rm -f "$VENV"/.installed-*
    touch "$STAMP"
fi
