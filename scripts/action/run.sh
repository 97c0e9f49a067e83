#!/usr/bin/env bash
# The action's `commitdigest run` step (action.yml). Reads the step's INPUT_* variables and
# the environment GitHub provides (GITHUB_WORKSPACE, GITHUB_OUTPUT, RUNNER_TEMP); writes the
# outputs reports, report-count, commits and exit-code. Never fails by itself: the action's
# last step fails with the run's exit code, after the site is built and uploaded.
set -uo pipefail
cd "${GITHUB_WORKSPACE:?}"
export COMMITDIGEST_HOME="${COMMITDIGEST_HOME:-${RUNNER_TEMP:?}/commitdigest-home}"
[ -n "${INPUT_ANALYSER:-}" ] && export COMMITDIGEST_ANALYSIS__ANALYSER="${INPUT_ANALYSER}"
[ -n "${INPUT_MODEL:-}" ] && export COMMITDIGEST_LLM__MODEL="${INPUT_MODEL}"
[ -n "${INPUT_LANGUAGE:-}" ] && export COMMITDIGEST_LANGUAGE="${INPUT_LANGUAGE}"
# an empty secret is no secret: unset it so the tools' own defaults apply
for name in OPENAI_API_KEY OPENAI_BASE_URL GITHUB_TOKEN; do
  [ -z "${!name:-}" ] && unset "${name}"
done

written="${RUNNER_TEMP:?}/commitdigest-written.txt"
commitdigest run --config "${INPUT_CONFIG:-commitdigest.toml}" | tee "${written}"
code=${PIPESTATUS[0]}

commits=$(python - "${written}" <<'PY'
import json, sys
total = 0
for line in open(sys.argv[1], encoding="utf-8"):
    path = line.strip()
    if path.endswith(".json"):
        try:
            data = json.load(open(path, encoding="utf-8"))
        except (OSError, ValueError):
            continue
        total += data.get("coverage", {}).get("total", 0) if "coverage" in data else 0
print(total)
PY
)
{
  echo "reports<<COMMITDIGEST_EOF"
  cat "${written}"
  echo "COMMITDIGEST_EOF"
  echo "report-count=$(grep -c . "${written}" || true)"
  echo "commits=${commits}"
  echo "exit-code=${code}"
} >> "${GITHUB_OUTPUT:?}"
exit 0
