#!/usr/bin/env bash
# The action's `commitdigest upgrade` step (action.yml, mode: upgrade). Reads the step's
# INPUT_* variables and the environment GitHub provides (GITHUB_WORKSPACE, GITHUB_OUTPUT,
# RUNNER_TEMP, GITHUB_EVENT_PATH, GITHUB_REPOSITORY, GITHUB_API_URL); writes the outputs
# verdict, report and exit-code, and (pr-comment) posts the Markdown report on the pull
# request as one comment, updated on re-runs. Never fails by itself: the action's next step
# fails with the check's exit code (9: the verdict meets fail-on; 2, 3 …: it could not run).
set -uo pipefail
cd "${GITHUB_WORKSPACE:?}"
export COMMITDIGEST_HOME="${COMMITDIGEST_HOME:-${RUNNER_TEMP:?}/commitdigest-home}"
[ -z "${GITHUB_TOKEN:-}" ] && unset GITHUB_TOKEN
out="${RUNNER_TEMP:?}/commitdigest-upgrade"
args=(upgrade "${INPUT_UPGRADE_REPOSITORY:?upgrade-repository is required in mode upgrade}"
      --from "${INPUT_UPGRADE_FROM:?upgrade-from is required in mode upgrade}"
      --to "${INPUT_UPGRADE_TO:?upgrade-to is required in mode upgrade}"
      --downstream "${INPUT_DOWNSTREAM:-.}" --fail-on "${INPUT_FAIL_ON:-affected}"
      --format md,json --out "${out}")
[ -n "${INPUT_LANGUAGE:-}" ] && args+=(--lang "${INPUT_LANGUAGE}")
commitdigest "${args[@]}" > "${RUNNER_TEMP}/commitdigest-upgrade-written.txt"
code=$?
md=$(grep '\.md$' "${RUNNER_TEMP}/commitdigest-upgrade-written.txt" | head -n 1)
json=$(grep '\.json$' "${RUNNER_TEMP}/commitdigest-upgrade-written.txt" | head -n 1)
verdict=""
if [ -n "${json}" ]; then
  verdict=$(python -c 'import json,sys; print(json.load(open(sys.argv[1], encoding="utf-8"))["verdict"])' "${json}" 2>/dev/null || true)
fi
{
  echo "verdict=${verdict}"
  echo "report=${md}"
  echo "exit-code=${code}"
} >> "${GITHUB_OUTPUT:?}"
if [ "${INPUT_PR_COMMENT:-true}" = "true" ] && [ -n "${md}" ]; then
  python "$(dirname "${BASH_SOURCE[0]}")/pr_comment.py" "${md}" || echo "::warning title=commitdigest upgrade::could not comment on the pull request"
fi
exit 0
