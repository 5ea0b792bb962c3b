#!/usr/bin/env bash
# The whole test suite: types, unit + integration tests (vitest, real PostgreSQL),
# then the black-box API tests over HTTP against a production build (Playwright).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

echo "== typecheck"
npx tsc --noEmit -p .

echo "== unit and integration tests"
npx vitest run

echo "== end-to-end tests"
npx playwright test
