# FindLibreOfficeSDK
# ------------------
# The LibreOffice SDK: what a C++ UNO component, such as a Calc add-in, is built with.
#
# Imported targets
#   LibreOfficeSDK::SDK           the UNO C++ headers, the libraries uno_cppuhelpergcc3, uno_cppu and
#                                 uno_sal, and the platform's defines (LINUX, UNX, CPPU_ENV)
#   LibreOfficeSDK::cppumaker     writes C++ headers for UNO types from type libraries (.rdb)
#   LibreOfficeSDK::unoidl-write  compiles UNOIDL files into a type library
#
# Result variables
#   LibreOfficeSDK_FOUND
#   LibreOfficeSDK_TYPES_RDB      the office's core UNO types (program/types.rdb)
#   LibreOfficeSDK_OFFAPI_RDB     the office's API types (program/types/offapi.rdb)
#
# Hints
#   LibreOfficeSDK_ROOT (CMake or environment variable) or OO_SDK_HOME (environment, as the SDK's
#   setsdkenv_unix sets it): the SDK folder; LibreOfficeSDK_PROGRAM_DIR or OFFICE_PROGRAM_PATH: the
#   office's program folder. Without them, Debian's places (package libreoffice-dev) are searched.

set(_lo_sdk_hints $ENV{OO_SDK_HOME} /usr/lib/libreoffice/sdk)
find_program(LibreOfficeSDK_CPPUMAKER cppumaker HINTS ${_lo_sdk_hints} PATH_SUFFIXES bin)
find_program(LibreOfficeSDK_UNOIDL_WRITE unoidl-write HINTS ${_lo_sdk_hints} PATH_SUFFIXES bin)
find_path(LibreOfficeSDK_INCLUDE_DIR sal/config.h
  HINTS ${_lo_sdk_hints} PATH_SUFFIXES include include/libreoffice)
foreach(_lo_lib IN ITEMS uno_cppuhelpergcc3 uno_cppu uno_sal)
  string(TOUPPER ${_lo_lib} _lo_var)
  find_library(LibreOfficeSDK_${_lo_var}_LIBRARY ${_lo_lib} HINTS ${_lo_sdk_hints} PATH_SUFFIXES lib)
  list(APPEND _lo_library_vars LibreOfficeSDK_${_lo_var}_LIBRARY)
endforeach()

# The type libraries are the office's, beside its program: the SDK's ../program, or Debian's.
set(LibreOfficeSDK_PROGRAM_DIR "$ENV{OFFICE_PROGRAM_PATH}" CACHE PATH "The office's program folder (types.rdb)")
set(_lo_program_hints ${LibreOfficeSDK_PROGRAM_DIR})
if(LibreOfficeSDK_CPPUMAKER)
  get_filename_component(_lo_sdk_bin ${LibreOfficeSDK_CPPUMAKER} DIRECTORY)
  list(APPEND _lo_program_hints ${_lo_sdk_bin}/../../program)
endif()
list(APPEND _lo_program_hints /usr/lib/libreoffice/program)
find_file(LibreOfficeSDK_TYPES_RDB types.rdb HINTS ${_lo_program_hints} NO_DEFAULT_PATH)
find_file(LibreOfficeSDK_OFFAPI_RDB offapi.rdb HINTS ${_lo_program_hints} PATH_SUFFIXES types NO_DEFAULT_PATH)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(LibreOfficeSDK
  REQUIRED_VARS LibreOfficeSDK_CPPUMAKER LibreOfficeSDK_UNOIDL_WRITE LibreOfficeSDK_INCLUDE_DIR
                ${_lo_library_vars} LibreOfficeSDK_TYPES_RDB LibreOfficeSDK_OFFAPI_RDB
  REASON_FAILURE_MESSAGE "on Debian, install libreoffice-dev")
mark_as_advanced(LibreOfficeSDK_CPPUMAKER LibreOfficeSDK_UNOIDL_WRITE LibreOfficeSDK_INCLUDE_DIR
  ${_lo_library_vars} LibreOfficeSDK_TYPES_RDB LibreOfficeSDK_OFFAPI_RDB)

if(LibreOfficeSDK_FOUND AND NOT TARGET LibreOfficeSDK::SDK)
  add_library(LibreOfficeSDK::SDK INTERFACE IMPORTED)
  set_target_properties(LibreOfficeSDK::SDK PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES ${LibreOfficeSDK_INCLUDE_DIR}
    INTERFACE_LINK_LIBRARIES "${LibreOfficeSDK_UNO_CPPUHELPERGCC3_LIBRARY};${LibreOfficeSDK_UNO_CPPU_LIBRARY};${LibreOfficeSDK_UNO_SAL_LIBRARY}"
    # The platform the UNO headers are compiled for (sal/config.h, uno/lbnames.h).
    INTERFACE_COMPILE_DEFINITIONS "$<$<PLATFORM_ID:Linux>:LINUX>;UNX;CPPU_ENV=gcc3")
  add_executable(LibreOfficeSDK::cppumaker IMPORTED)
  set_target_properties(LibreOfficeSDK::cppumaker PROPERTIES IMPORTED_LOCATION ${LibreOfficeSDK_CPPUMAKER})
  add_executable(LibreOfficeSDK::unoidl-write IMPORTED)
  set_target_properties(LibreOfficeSDK::unoidl-write PROPERTIES IMPORTED_LOCATION ${LibreOfficeSDK_UNOIDL_WRITE})
endif()
