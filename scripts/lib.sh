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
