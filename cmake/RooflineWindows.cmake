# roofline.dll for Windows x86-64, cross-built by the plain build from the same sources whenever mingw-w64
# is installed (ROOFLINE_BUILD_WINDOWS AUTO; ON requires it): a nested build of this project into windows/
# with cmake/mingw-w64-x86_64.cmake, the library and its C test programs only (Release, -O2). The tests
# (tests/CMakeLists.txt, ROOFLINE_WINDOWS_BUILT) run them under Wine.
#
# For what packs the DLL (the multi-platform .oxt):
#   ROOFLINE_WINDOWS_DLL        the DLL's path, <build>/windows/bin/roofline.dll
#   roofline_windows_dll        an imported SHARED library target at that path ($<TARGET_FILE:...>), whose
#                               dependents build the DLL first
#   ROOFLINE_WINDOWS_BINARY_DIR <build>/windows (bin/ holds the DLL and the test programs)
set(_roofline_triple x86_64-w64-mingw32)
find_program(ROOFLINE_MINGW_CXX NAMES ${_roofline_triple}-g++-posix ${_roofline_triple}-g++)
find_program(ROOFLINE_MINGW_OBJDUMP NAMES ${_roofline_triple}-objdump)
if(NOT ROOFLINE_MINGW_CXX OR NOT ROOFLINE_MINGW_OBJDUMP)
  if(ROOFLINE_BUILD_WINDOWS STREQUAL "ON")
    message(FATAL_ERROR "ROOFLINE_BUILD_WINDOWS=ON: no mingw-w64 (Debian: g++-mingw-w64-x86-64-posix)")
  endif()
  message(STATUS "roofline.dll: not built (no mingw-w64: scripts/install-deps installs it)")
  return()
endif()

# Wine runs its tests (cmake/wine-run); Debian's wine64 puts it in /usr/lib/wine.
find_program(ROOFLINE_WINE NAMES wine64 wine PATHS /usr/lib/wine)
if(NOT ROOFLINE_WINE)
  if(ROOFLINE_BUILD_WINDOWS STREQUAL "ON")
    message(FATAL_ERROR "ROOFLINE_BUILD_WINDOWS=ON: no Wine to test roofline.dll (Debian: wine64)")
  endif()
  message(STATUS "roofline.dll: its tests under Wine are left out (no Wine: scripts/install-deps installs it)")
endif()

set(ROOFLINE_WINDOWS_BINARY_DIR ${PROJECT_BINARY_DIR}/windows)
set(ROOFLINE_WINDOWS_DLL ${ROOFLINE_WINDOWS_BINARY_DIR}/bin/roofline.dll)
set(_roofline_windows_programs test_c_api test_threads print_examples)
set(_roofline_windows_byproducts ${ROOFLINE_WINDOWS_DLL} ${ROOFLINE_WINDOWS_BINARY_DIR}/c-api/libroofline.dll.a)
foreach(_program IN LISTS _roofline_windows_programs)
  list(APPEND _roofline_windows_byproducts ${ROOFLINE_WINDOWS_BINARY_DIR}/bin/${_program}.exe)
endforeach()

include(ExternalProject)
ExternalProject_Add(roofline_windows
  SOURCE_DIR ${PROJECT_SOURCE_DIR}
  BINARY_DIR ${ROOFLINE_WINDOWS_BINARY_DIR}
  # Its steps' stamps inside it: removing windows/ makes the next build configure it again.
  PREFIX ${ROOFLINE_WINDOWS_BINARY_DIR}/external-project
  CMAKE_ARGS
    -DCMAKE_TOOLCHAIN_FILE=${PROJECT_SOURCE_DIR}/cmake/mingw-w64-x86_64.cmake
    -DCMAKE_BUILD_TYPE=Release
    "-DCMAKE_C_FLAGS_RELEASE=-O2 -DNDEBUG"
    "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG"
    -DROOFLINE_BUILD_TESTS=${ROOFLINE_BUILD_TESTS}
    -DROOFLINE_BUILD_EXAMPLES=OFF
    -DROOFLINE_INSTALL=OFF
    -DROOFLINE_UNITY_BUILD=${ROOFLINE_UNITY_BUILD}
    # The generated sources come from this build's roofline-codegen: none is built for Windows.
    -DROOFLINE_CODEGEN=$<TARGET_FILE:roofline-codegen>
  # Its default target is all it has (the top CMakeLists.txt cuts a cross build short); make's jobs are shared.
  BUILD_ALWAYS ON  # its own build decides what is out of date, from the same sources
  INSTALL_COMMAND ""
  DEPENDS roofline-codegen
  BUILD_BYPRODUCTS ${_roofline_windows_byproducts})

add_library(roofline_windows_dll SHARED IMPORTED GLOBAL)
set_target_properties(roofline_windows_dll PROPERTIES
  IMPORTED_LOCATION ${ROOFLINE_WINDOWS_DLL}
  IMPORTED_IMPLIB ${ROOFLINE_WINDOWS_BINARY_DIR}/c-api/libroofline.dll.a)
add_dependencies(roofline_windows_dll roofline_windows)
set(ROOFLINE_WINDOWS_BUILT ON)
message(STATUS "roofline.dll: cross-built with ${ROOFLINE_MINGW_CXX} into ${ROOFLINE_WINDOWS_BINARY_DIR}")
