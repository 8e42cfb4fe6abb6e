# Toolchain file: libroofline for Windows x86-64 (roofline.dll), built on Debian with mingw-w64
# (g++-mingw-w64-x86-64-posix) and run under Wine (wine64) as the cross-compiling emulator:
#
#   cmake -S . -B build-windows --toolchain cmake/mingw-w64-x86_64.cmake -DCMAKE_BUILD_TYPE=Release
#
# The plain build does this itself into build/windows/ when mingw-w64 is installed (cmake/RooflineWindows.cmake).
# A cross build is the library and its C tests only; fmt and nlohmann-json are header-only there, from the
# build machine's headers (cmake/RooflineHeaderOnlyDeps.cmake).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(_roofline_triple x86_64-w64-mingw32)

# The posix thread model (std::thread, std::mutex through winpthreads), linked statically below.
find_program(CMAKE_C_COMPILER NAMES ${_roofline_triple}-gcc-posix ${_roofline_triple}-gcc REQUIRED)
find_program(CMAKE_CXX_COMPILER NAMES ${_roofline_triple}-g++-posix ${_roofline_triple}-g++ REQUIRED)
find_program(CMAKE_RC_COMPILER NAMES ${_roofline_triple}-windres)

set(CMAKE_FIND_ROOT_PATH /usr/${_roofline_triple})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# libgcc, libstdc++ and winpthreads inside each binary: roofline.dll imports only KERNEL32.dll and msvcrt.dll.
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")

# Test programs run under Wine, headless, in a prefix of their own (cmake/wine-run).
set(CMAKE_CROSSCOMPILING_EMULATOR ${CMAKE_CURRENT_LIST_DIR}/wine-run)
