# Install components and Debian packages (CPack DEB), included by the top CMakeLists.txt after the
# subdirectories have declared their install rules.
#
#   cmake --preset default && cmake --build build && (cd build && cpack -G DEB)
#
# writes into build/ one .deb per component:
#
#   component  package                 what
#   lib        libroofline0            libroofline.so.0 (SONAME libroofline.so.<major>)
#   dev        libroofline-dev         roofline.h, the CMake package, roofline.pc, the libroofline.so link
#   cli        roofline                the command line, /usr/bin/roofline
#   python     python3-roofline        the Python package, /usr/lib/python3/dist-packages/roofline
#   libreoffice libreoffice-roofline  the Calc add-in unpacked as a bundled extension of the system's
#                                      LibreOffice, /usr/lib/libreoffice/share/extensions/roofline
#
# The component `calc` (the .oxt and scripts/install-addin under share/roofline, for the source route)
# is in no package: libreoffice-roofline replaces it. `libreoffice` is EXCLUDE_FROM_ALL: a plain
# `cmake --install` does not put it under <prefix>/lib/libreoffice, where no LibreOffice looks.
#
# The packages take the build's layout under /usr: a build configured with the default prefix has
# CMAKE_INSTALL_LIBDIR `lib`, so the library is /usr/lib/libroofline.so.0 (on the loader's path);
# configure with -DCMAKE_INSTALL_PREFIX=/usr for Debian's multiarch /usr/lib/<triplet>.

if(NOT ROOFLINE_INSTALL)
  return()
endif()

# ---- The Python package (component python) ----
# Where: under a prefix that ends in /usr (/usr itself, or CPack's staging folder for /usr), Debian's
# lib/python3/dist-packages, which every Python 3 of the system reads; under any other prefix
# lib/python3.<minor>/dist-packages, which Debian's Python reads for /usr/local (elsewhere name it in
# PYTHONPATH). ROOFLINE_INSTALL_PYTHONDIR, when set, is used as given (relative to the prefix).
# The rule is evaluated at install time, since CPack installs with a prefix of its own.
set(ROOFLINE_INSTALL_PYTHONDIR "" CACHE STRING
    "Where cmake --install puts the Python package, relative to the prefix (empty: see cmake/Packaging.cmake)")
find_program(ROOFLINE_PYTHON3 NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
set(_roofline_py_minor "3")
if(ROOFLINE_PYTHON3)
  execute_process(COMMAND ${ROOFLINE_PYTHON3} -c "import sys; print('%d.%d' % sys.version_info[:2])"
    OUTPUT_VARIABLE _roofline_py_minor OUTPUT_STRIP_TRAILING_WHITESPACE)
endif()
install(CODE "
  set(_roofline_pythondir \"${ROOFLINE_INSTALL_PYTHONDIR}\")
  if(NOT _roofline_pythondir)
    if(CMAKE_INSTALL_PREFIX MATCHES \"(^|/)usr/?$\")
      set(_roofline_pythondir lib/python3/dist-packages)
    else()
      set(_roofline_pythondir lib/python${_roofline_py_minor}/dist-packages)
    endif()
  endif()" COMPONENT python)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/roofline DESTINATION "\${_roofline_pythondir}" COMPONENT python
  PATTERN "__pycache__" EXCLUDE)

# ---- Debian packages ----
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME roofline)
set(CPACK_PACKAGE_VENDOR "the libroofline developers")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
# Each package's Description starts with its own synopsis (CPACK_COMPONENT_<C>_DESCRIPTION below); CPack
# would put a summary of its own before it unless the summary is CPack's default text.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${CMAKE_PROJECT_NAME} built using CMake")
set(CPACK_PACKAGE_CONTACT "the libroofline developers <maintainers@users.noreply.a-seed-8fe4dffe.example>"
    CACHE STRING "The Maintainer field of the Debian packages")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR})
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)            # <package>_<version>_<architecture>.deb
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(_deb_version "${PROJECT_VERSION}-1")
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Depends on the system's libraries from their ELF files (dpkg-shlibdeps, from dpkg-dev); our own
# libroofline.so.0 is found in the build tree and named by hand below.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PROJECT_BINARY_DIR}/c-api)
# libroofline0's shlibs file (and ldconfig in its postinst and postrm). CPack looks at every package's
# shared objects for it and warns that the add-in's libroofline_calc.so has no SONAME: a UNO component
# loaded by path needs none.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
# Without the debug information of the RelWithDebInfo build (18 MB of libroofline0, 50 MB of roofline).
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")

set(CPACK_COMPONENTS_ALL lib dev cli python libreoffice)
set(_summary "roofline lower bounds for LLM inference on GPUs")
# (CPack indents the lines after the synopsis and turns an empty line into " .")
set(_about "libroofline estimates how fast LLM inference can possibly run on a GPU from the\nroofline model: a step takes at least max(FLOPs / peak compute, bytes moved / memory\nbandwidth), for decode, prefill and named models on named GPUs.\n")

set(CPACK_DEBIAN_LIB_PACKAGE_NAME libroofline0)
set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
set(CPACK_COMPONENT_LIB_DESCRIPTION "${_summary} - shared library\n${_about}\nThis package has the shared library with its stable C ABI (roofline.h).")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libroofline-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "libroofline0 (= ${_deb_version})")
set(CPACK_COMPONENT_DEV_DESCRIPTION "${_summary} - development files\n${_about}\nThis package has the C header roofline.h, the CMake package (find_package(roofline))\nand the pkg-config file.")

set(CPACK_DEBIAN_CLI_PACKAGE_NAME roofline)
set(CPACK_DEBIAN_CLI_PACKAGE_SECTION science)
set(CPACK_DEBIAN_CLI_PACKAGE_DEPENDS "libroofline0 (= ${_deb_version})")
set(CPACK_COMPONENT_CLI_DESCRIPTION "${_summary} - command line\n${_about}\nThis package has the command line program roofline.")

set(CPACK_DEBIAN_PYTHON_PACKAGE_NAME python3-roofline)
set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
set(CPACK_DEBIAN_PYTHON_PACKAGE_ARCHITECTURE all)   # pure Python; libroofline0 brings the machine code
set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS "python3, libroofline0 (>= ${_deb_version})")
set(CPACK_DEBIAN_PYTHON_PACKAGE_SHLIBDEPS OFF)
# As Debian's dh_python3 does: byte-compile on install, remove the byte code on removal (Python writes
# __pycache__ beside the package when root imports it, which would outlive the package otherwise).
set(CPACK_DEBIAN_PYTHON_PACKAGE_CONTROL_EXTRA
  ${PROJECT_SOURCE_DIR}/cmake/debian/python3-roofline/postinst
  ${PROJECT_SOURCE_DIR}/cmake/debian/python3-roofline/prerm)
set(CPACK_DEBIAN_PYTHON_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_COMPONENT_PYTHON_DESCRIPTION "${_summary} - Python 3 package\n${_about}\nThis package has the Python module roofline (ctypes over libroofline.so.0).")

# The Calc add-in as a bundled extension of the system's LibreOffice: libreoffice-common's dpkg trigger
# on /usr/lib/libreoffice/share/extensions touches that folder when a package adds or removes files in
# it, and every LibreOffice of the machine then synchronises its bundled extensions at its next start.
# It links the system's libroofline.so.0 (no copy of it in the package: the .oxt's copy is only for
# the .oxt), hence the exact version: the add-in's methods are generated from that library's table.
set(ROOFLINE_LIBREOFFICE_MIN 4:7.4 CACHE STRING "The oldest LibreOffice (Debian version) libreoffice-roofline depends on")
set(CPACK_DEBIAN_LIBREOFFICE_PACKAGE_NAME libreoffice-roofline)
set(CPACK_DEBIAN_LIBREOFFICE_PACKAGE_SECTION editors)
set(CPACK_DEBIAN_LIBREOFFICE_PACKAGE_DEPENDS
  "libreoffice-calc (>= ${ROOFLINE_LIBREOFFICE_MIN}) | libreoffice-calc-nogui (>= ${ROOFLINE_LIBREOFFICE_MIN}), libroofline0 (= ${_deb_version})")
set(CPACK_COMPONENT_LIBREOFFICE_DESCRIPTION "${_summary} - LibreOffice Calc add-in\n${_about}\nThis package has the LibreOffice Calc add-in (=ROOFLINE_DECODE_MS(8; 64; 4096; 3.35) and\nevery other formula) as an extension bundled with LibreOffice: every user of the machine\nhas the formulas, with no step of their own.")

include(CPack)
