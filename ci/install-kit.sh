#!/usr/bin/env bash
# The Action's install step (action.yml): the kit in a venv of its own under the runner's temporary folder, so
# the user's Python, PATH and packages stay as they were; the venv's refimpl and the artifact name are step
# outputs for the steps after it.
#
#   PYTHON          the interpreter setup-python found (required)
#   ACTION_PATH     the action's checkout: installed when KIT_VERSION is empty
#   KIT_VERSION     a release commit of KIT_REPOSITORY, or a tag or version (v0.3.0, 0.3.0) where one is published
#   KIT_REPOSITORY  OWNER/REPO of the action (github.action_repository)
#   ARTIFACT_NAME   the artifact's name; empty: refimpl-reports-$GITHUB_JOB-<hash of NAME_PARTS>
#   NAME_PARTS      this use's inputs and runner, joined (what tells the legs of a matrix apart)
set -euo pipefail

: "${PYTHON:?set PYTHON to the interpreter that runs the kit}"
venv="$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/refimpl-kit.XXXXXX")"
"$PYTHON" -m venv "$venv"
if [[ -x "$venv/bin/python" ]]; then bin="$venv/bin"; else bin="$venv/Scripts"; fi  # Windows: Scripts/
pip=("$bin/python" -m pip install --quiet --disable-pip-version-check)

if [[ -z "${KIT_VERSION:-}" ]]; then
    "${pip[@]}" "$ACTION_PATH"
else
    if [[ -z "${KIT_REPOSITORY:-}" ]]; then
        echo "::error::the version input needs the action used from its repository (uses: OWNER/REPO@REF)"
        exit 2
    fi
    if [[ "$KIT_VERSION" =~ ^v?[0-9]+(\.[0-9]+)*$ ]]; then  # a version: its tag, and the version checked
        "${pip[@]}" "refimpl @ git+https://github.com/${KIT_REPOSITORY}@v${KIT_VERSION#v}"
        if ! "$bin/refimpl" --version | grep -q "^refimpl ${KIT_VERSION#v} "; then
            echo "::error::asked for kit ${KIT_VERSION}, installed $("$bin/refimpl" --version)"
            exit 2
        fi
    else
        "${pip[@]}" "refimpl @ git+https://github.com/${KIT_REPOSITORY}@${KIT_VERSION}"
    fi
fi
"$bin/refimpl" --version

name="${ARTIFACT_NAME:-}"
if [[ -z "$name" ]]; then
    hash="$(printf '%s' "${NAME_PARTS:-}" | "$bin/python" -c 'import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest()[:10])')"
    name="refimpl-reports-${GITHUB_JOB:-job}-${hash}"
fi
if [[ -n "${GITHUB_OUTPUT:-}" ]]; then
    printf 'refimpl=%s\nartifact-name=%s\n' "$bin/refimpl" "$name" >> "$GITHUB_OUTPUT"
fi
