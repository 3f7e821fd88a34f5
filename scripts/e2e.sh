#!/usr/bin/env bash
# The e2e suite in two passes (playwright.config.ts says which spec goes where): the specs that
# share the machine, two at a time, then those that need it alone, one at a time. Both passes
# always run, so one failure does not hide the other pass's; the exit status is the worse of them.
set -uo pipefail
cd "$(dirname "$0")/.."
npx playwright test --project=shared --pass-with-no-tests "$@"
shared=$?
npx playwright test --project=alone --pass-with-no-tests "$@"
alone=$?
exit $((shared > alone ? shared : alone))
