# Shared by scripts/test and scripts/run.

roofline_build() {
  # The default preset (CMakePresets.json) requires the add-in and its Calc tests: their absence
  # fails instead of skipping them.
  cmake --preset default >/dev/null
  cmake --build --preset default
}
