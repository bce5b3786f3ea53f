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
# The extras to install ("dev" for bin/test); a caller passes "" explicitly, or else `source`
# would hand it the caller's own arguments (bin/start --host H read "--host" as extras).
EXTRAS="${1:-}"
HASH="$(sha256sum < "$ROOT/pyproject.toml" | cut -c1-16)"
STAMP="$VENV/.installed-$HASH${EXTRAS:+-$EXTRAS}"
# An install with extras serves a caller that needs none (bin/start after bin/test).
if [ -z "$EXTRAS" ] && compgen -G "$VENV/.installed-$HASH*" > /dev/null; then
    STAMP="$(compgen -G "$VENV/.installed-$HASH*" | head -n 1)"
fi
if [ ! -f "$STAMP" ]; then
    "$VENV/bin/python" -m pip install --quiet --upgrade pip
    "$VENV/bin/python" -m pip install --quiet -e "$ROOT${EXTRAS:+[$EXTRAS]}"
    rm -f "$VENV"/.installed-*
    touch "$STAMP"
fi
