# Shared by scripts/test and scripts/run.

# Debian packages the build and the tests need.
ROOFLINE_DEBIAN_PACKAGES=(
  build-essential cmake ninja-build pkg-config
  libfmt-dev catch2 nlohmann-json3-dev
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
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build build
}
