# Shared by scripts/test and scripts/run.

# The binary folder of a configure preset, as CMakePresets.json names it (following "inherits").
roofline_binary_dir() {
  python3 - "${1:-default}" <<'PY'
import json, sys
presets = {p["name"]: p for p in json.load(open("CMakePresets.json"))["configurePresets"]}
name = p = sys.argv[1]
while "binaryDir" not in presets[p]:
    p = presets[p]["inherits"]
print(presets[p]["binaryDir"].replace("${sourceDir}/", "").replace("${presetName}", name))
PY
}

# Configures one preset; extra arguments go to cmake. The presets ask for Ninja, but a folder that the
# plain commands of docs/install.md made (`cmake -S . -B build`: Unix Makefiles) keeps the generator it was made
# with: CMake refuses to change a folder's generator, and a -G on the command line wins over a preset's.
roofline_configure() {
  local preset=${1:-default}
  shift || true
  local cache generator=()
  cache="$(roofline_binary_dir "$preset")/CMakeCache.txt"
  if [ -f "$cache" ]; then
    local used
    used=$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$cache")
    [ -n "$used" ] && generator=(-G "$used")
  fi
  cmake --preset "$preset" "${generator[@]}" "$@" >/dev/null
}

# Configures and builds one preset of CMakePresets.json (default: `default`, which requires the
# add-in and its Calc tests, so that their absence fails instead of skipping them).
roofline_build() {
  local preset=${1:-default}
  roofline_configure "$preset"
  cmake --build --preset "$preset"
}

# The build's progress, for a first run that takes minutes: each stage with its time, and ninja's [done/total]
# counter every tenth of the way (the compiler's own output only where a step fails: the whole log is kept).
build_with_progress() {
  local log=build/run-build.log start=$SECONDS
  mkdir -p build
  echo "== building libroofline, its CLI and the Calc add-in (cmake --build --preset default; log: $log)"
  # The build's status rides at the end of its output (__status=N), so that a failure is reported here whatever the
  # caller's errexit and pipefail.
  { set +e; (set -e; roofline_build); echo "__status=$?"; } 2>&1 | tee "$log" | awk '
      /^\[[0-9]+\/[0-9]+\]/ {  # ninja: [done/total]
        split(substr($1, 2, length($1) - 2), p, "/"); pct = 100 * p[1] / p[2]; what = p[1] " of " p[2] " steps" }
      /^\[ *[0-9]+%\]/ {  # make: [ 42%]
        pct = substr($0, 2, index($0, "%") - 2) + 0; what = "make" }
      pct != "" && int(pct / 10) > shown { shown = int(pct / 10); printf "   %3d%% (%s)\n", 10 * shown, what; fflush() }'
  if [ "$(sed -n 's/^__status=//p' "$log" | tail -n 1)" != 0 ]; then
    echo "scripts/run: the build failed; its last lines (the whole log: $log):" >&2
    tail -n 40 "$log" >&2
    exit 1
  fi
  echo "== built in $((SECONDS - start)) s"
}
