#!/usr/bin/env bash
# The CI gate (action.yml runs it; so can any CI): `refimpl verify` on a build, every report written into one
# folder, and verify's exit code as the script's.
#
#   REFIMPL_BUILD_COMMAND  shell command that starts the build under test (required)
#   REFIMPL_ARGS           extra verify options, split on whitespace (e.g. "--game ludo --no-scenarios")
#   REFIMPL_REPORTS        the reports folder (default refimpl-reports): junit.xml, verify.json, report.html,
#                          verify.txt (the text report, also printed) and badges/ (Shields endpoint JSON)
#   REFIMPL                the refimpl command (default refimpl)
#
# With GITHUB_OUTPUT set it appends exit-code=N and verdict=WORD there. With GITHUB_STEP_SUMMARY set, verify
# writes the run's one summary section there and this script adds a line naming the reports folder; where verify
# wrote none (it stopped on bad input, or crashed), this script writes a short section in its place. Exit codes are verify's: 0 conforms, 1 does not conform, 2 bad input, 3 the build broke,
# 4 internal error (a bug in the kit, not a verdict on the build), 130/143 interrupted.
set -euo pipefail

: "${REFIMPL_BUILD_COMMAND:?set REFIMPL_BUILD_COMMAND to the shell command that starts the build under test}"
REFIMPL="${REFIMPL:-refimpl}"
REPORTS="${REFIMPL_REPORTS:-refimpl-reports}"
read -r -a refimpl <<< "$REFIMPL"  # a command with arguments, e.g. "python -m refimpl"
read -r -a args <<< "${REFIMPL_ARGS:-}"

mkdir -p "$REPORTS"
# nothing from an earlier run may look current (verify itself clears its badges and transcripts)
rm -f "$REPORTS/junit.xml" "$REPORTS/verify.json" "$REPORTS/report.html" "$REPORTS/verify.txt"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# verify runs in the background so that a signal to this shell (a cancelled CI job signals only the step's
# shell) is passed on at once: verify then ends the build and exits 130 or 143 after printing what ran.
# Job control (set -m) keeps SIGINT at its default in the background job, which would otherwise ignore it.
set -m
pid=""
# shellcheck disable=SC2329  # called by the traps below
forward() { if [[ -n "$pid" ]]; then kill -s "$1" "$pid" 2>/dev/null || true; fi; }
trap 'forward INT' INT
trap 'forward TERM' TERM

summary_size() { if [[ -n "${GITHUB_STEP_SUMMARY:-}" && -f "$GITHUB_STEP_SUMMARY" ]]; then wc -c < "$GITHUB_STEP_SUMMARY"; else echo 0; fi; }
summary_before="$(summary_size)"

mkfifo "$work/out"
tee "$REPORTS/verify.txt" < "$work/out" &
tee_pid=$!
"${refimpl[@]}" verify --impl "$REFIMPL_BUILD_COMMAND" \
    --junit-xml "$REPORTS/junit.xml" --json "$REPORTS/verify.json" --html "$REPORTS/report.html" \
    --badges "$REPORTS/badges" --transcript "$REPORTS/transcripts" ${args[@]+"${args[@]}"} > "$work/out" &
pid=$!

set +e
wait "$pid"
code=$?
while kill -0 "$pid" 2>/dev/null; do  # wait returned for a trapped signal: wait for verify's own code
    wait "$pid"
    code=$?
done
wait "$tee_pid"
set -e

case "$code" in
    0) verdict=conforms ;;
    1) verdict=does_not_conform ;;
    2) verdict=bad_input ;;
    3) verdict=build_broke ;;
    4) verdict=internal_error ;;
    130 | 143) verdict=interrupted ;;
    *) verdict=error ;;
esac

if [[ -n "${GITHUB_OUTPUT:-}" ]]; then
    printf 'exit-code=%s\nverdict=%s\n' "$code" "$verdict" >> "$GITHUB_OUTPUT"
fi

if [[ -n "${GITHUB_STEP_SUMMARY:-}" ]]; then
    # shellcheck disable=SC2016  # the backquotes are markdown
    if [[ "$(summary_size)" != "$summary_before" ]]; then  # verify wrote the run's section: one line more
        printf '\nReports in `%s` (exit %s): junit.xml, verify.json, report.html, verify.txt, badges/\n' \
            "${REPORTS//\`/}" "$code" >> "$GITHUB_STEP_SUMMARY"
    else
        {
            printf '### refimpl verify: %s (exit %s)\n\n' "$verdict" "$code"
            if grep -qE '^(Kit:|Verdict:|Stopped early:)' "$REPORTS/verify.txt"; then
                printf '```text\n'
                grep -E '^(Kit:|Verdict:|Stopped early:)' "$REPORTS/verify.txt" | tr -d '`'
                printf '```\n\n'
            fi
            printf 'Reports in `%s`\n' "${REPORTS//\`/}"
        } >> "$GITHUB_STEP_SUMMARY"
    fi
fi

exit "$code"
