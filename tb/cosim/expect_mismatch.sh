#!/usr/bin/env bash
# expect_mismatch.sh CMD [ARGS...]: for the mutation tests. Runs a co-simulation that must catch
# a deliberate bug; succeeds only if CMD exits with status 1 AND printed a "MISMATCH" report.
# A pass (0), a usage error (2), a crash or abort (>= 128) or an RTL assertion all fail.
set -u
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -eq 1 ] && grep -q '^MISMATCH ' <<<"$out"; then
  echo "expect_mismatch: OK: the mutant was caught (exit 1, MISMATCH reported)"
  exit 0
fi
echo "expect_mismatch: FAIL: exit status $rc, MISMATCH $(grep -q '^MISMATCH ' <<<"$out" && echo printed || echo 'not printed')" >&2
exit 1
