# fmt and nlohmann-json for a cross build (cmake/mingw-w64-x86_64.cmake): both header-only, from the build
# machine's headers, as the targets find_package() gives natively (fmt::fmt-header-only and
# nlohmann_json::nlohmann_json). Their headers are reached through a folder of the build tree that holds
# only fmt/ and nlohmann/: the whole /usr/include would shadow the target's C library headers.
find_path(ROOFLINE_FMT_INCLUDE_DIR fmt/format.h HINTS /usr/include /usr/local/include NO_CMAKE_FIND_ROOT_PATH)
find_path(ROOFLINE_NLOHMANN_JSON_INCLUDE_DIR nlohmann/json.hpp HINTS /usr/include /usr/local/include
  NO_CMAKE_FIND_ROOT_PATH)
if(NOT ROOFLINE_FMT_INCLUDE_DIR OR NOT ROOFLINE_NLOHMANN_JSON_INCLUDE_DIR)
  message(FATAL_ERROR "A cross build takes fmt and nlohmann-json headers from this machine (Debian: libfmt-dev, "
    "nlohmann-json3-dev): set ROOFLINE_FMT_INCLUDE_DIR and ROOFLINE_NLOHMANN_JSON_INCLUDE_DIR to the folders "
    "that hold fmt/ and nlohmann/")
endif()

set(_roofline_deps_dir ${PROJECT_BINARY_DIR}/header-only-deps)
file(MAKE_DIRECTORY ${_roofline_deps_dir})
file(CREATE_LINK ${ROOFLINE_FMT_INCLUDE_DIR}/fmt ${_roofline_deps_dir}/fmt SYMBOLIC)
file(CREATE_LINK ${ROOFLINE_NLOHMANN_JSON_INCLUDE_DIR}/nlohmann ${_roofline_deps_dir}/nlohmann SYMBOLIC)

add_library(fmt::fmt-header-only INTERFACE IMPORTED)
set_target_properties(fmt::fmt-header-only PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES ${_roofline_deps_dir}
  INTERFACE_COMPILE_DEFINITIONS FMT_HEADER_ONLY=1)
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
set_target_properties(nlohmann_json::nlohmann_json PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${_roofline_deps_dir})
