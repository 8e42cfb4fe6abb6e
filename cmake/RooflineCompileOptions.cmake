# Two INTERFACE targets that every target of the project links PRIVATE (after fmt's CMakeLists):
#   roofline_warnings    the warnings every C and C++ file is compiled with;
#   roofline_sanitizers  the sanitizers of this build (ROOFLINE_SANITIZE, and libFuzzer's coverage
#                        when ROOFLINE_FUZZ is ON), both to compile and to link; empty otherwise.
# They are build-tree only: neither is installed nor exported.

add_library(roofline_warnings INTERFACE)
target_compile_options(roofline_warnings INTERFACE
  -Wall -Wextra -Wpedantic
  # GCC 12 warns falsely about std::variant<std::string> moves (maybe-uninitialized).
  $<$<C_COMPILER_ID:GNU>:-Wno-maybe-uninitialized>)

add_library(roofline_sanitizers INTERFACE)
set(_roofline_sanitize "${ROOFLINE_SANITIZE}")
if(ROOFLINE_FUZZ AND NOT _roofline_sanitize)
  set(_roofline_sanitize address,undefined)
endif()
if(_roofline_sanitize)
  target_compile_options(roofline_sanitizers INTERFACE
    -fsanitize=${_roofline_sanitize} -fno-omit-frame-pointer -fno-sanitize-recover=all
    # Coverage for libFuzzer in every object; the fuzz targets add the fuzzer's main.
    $<$<BOOL:${ROOFLINE_FUZZ}>:-fsanitize=fuzzer-no-link>)
  target_link_options(roofline_sanitizers INTERFACE -fsanitize=${_roofline_sanitize})
endif()

# ROOFLINE_INSTRUMENTED: whether this build is sanitized or fuzzed. No speed, fit or accuracy is read from such a
# build: what none of its tests runs is left out of its `all` (CI's time).
if(ROOFLINE_SANITIZE OR ROOFLINE_FUZZ)
  set(ROOFLINE_INSTRUMENTED ON)
else()
  set(ROOFLINE_INSTRUMENTED OFF)
endif()

# roofline_unoptimized_when_sanitized(<target>...): under the sanitizers, these targets' own code compiles at -O0
# (the presets' Debug is -O1): code that does little at run time but is long to optimise (Catch2's runner, CLI11's
# and fmt's templates), whose run time is the library's; the library keeps -O1.
function(roofline_unoptimized_when_sanitized)
  if(ROOFLINE_SANITIZE)
    foreach(target IN LISTS ARGN)
      target_compile_options(${target} PRIVATE -O0)
    endforeach()
  endif()
endfunction()
