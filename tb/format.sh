#!/usr/bin/env bash
# Formats every C++ source with clang-format (.clang-format: Google style, 100 columns).
#   bash tb/format.sh          rewrite in place
#   bash tb/format.sh --check  list files that need formatting, exit 1 if any
set -euo pipefail
cd "$(dirname "$0")/.."
files=$(find models tb tests -name "*.cpp" -o -name "*.hpp" | sort)
if [ "${1:-}" = "--check" ]; then
  bad=0
  for f in $files; do
    if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then echo "needs formatting: $f"; bad=1; fi
  done
  exit $bad
fi
clang-format -i $files
