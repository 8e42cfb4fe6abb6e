# Shared by scripts/test and scripts/run.

# Configures and builds one preset of CMakePresets.json (default: `default`, which requires the
# add-in and its Calc tests, so that their absence fails instead of skipping them).
roofline_build() {
  local preset=${1:-default}
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset"
}
