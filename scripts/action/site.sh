#!/usr/bin/env bash
# The action's site step (action.yml): the archive site of the config's output folder,
# built into RUNNER_TEMP; writes the output site-dir.
set -euo pipefail
cd "${GITHUB_WORKSPACE:?}"
reports=$(python -c '
import sys
from pathlib import Path
from commitdigest.config import find_config, load_settings
print(load_settings(find_config(Path(sys.argv[1]))).output_dir)
' "${INPUT_CONFIG:-commitdigest.toml}")
site="${RUNNER_TEMP:?}/commitdigest-site"
args=(site --reports "${reports}" --out "${site}")
[ -n "${INPUT_BASE_URL:-}" ] && args+=(--base-url "${INPUT_BASE_URL}")
commitdigest "${args[@]}"
echo "site-dir=${site}" >> "${GITHUB_OUTPUT:?}"
