# Shared by scripts/test and scripts/run.

# Debian packages the build and the tests need.
ROOFLINE_DEBIAN_PACKAGES=(
  build-essential cmake ninja-build pkg-config
  libfmt-dev catch2 nlohmann-json3-dev libcli11-dev libbenchmark-dev
  # The Calc add-in: the SDK to build it, a headless Calc and Python-UNO to test it, and the
  # Chinese language pack to see its Function Wizard texts in Chinese.
  libreoffice-dev libreoffice-calc python3-uno libreoffice-l10n-zh-cn
  # Reliability checks: clang with libFuzzer, the ABI checker, strace for the hostile-workbook test.
  clang libclang-rt-14-dev abigail-tools strace
)

roofline_install_deps() {
  local missing=()
  for p in "${ROOFLINE_DEBIAN_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "scripts: installing ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
}

roofline_build() {
  # The add-in and its Calc tests are required here: their absence fails instead of skipping them.
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DROOFLINE_BUILD_ADDIN=ON -DROOFLINE_CALC_TESTS=ON >/dev/null
  cmake --build build
}
