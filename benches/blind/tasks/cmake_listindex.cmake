# package.cmake -- compute archive names for the nightly release bundles.
# Run from the top of the source tree:  cmake -P cmake/package.cmake
cmake_minimum_required(VERSION 3.16)

set(PROJECT_NAME_LOWER "tessera")
set(VERSION_HEADER [=[
#define TESSERA_VERSION_MAJOR 2
#define TESSERA_VERSION_MINOR 14
#define TESSERA_VERSION_PATCH 3
]=])

# Extract one numeric component from the version header text.
function(read_version_component text name out_var)
  string(REGEX MATCH "TESSERA_VERSION_${name} ([0-9]+)" _m "${text}")
  if(NOT _m)
    message(FATAL_ERROR "version component ${name} not found")
  endif()
  set(${out_var} "${CMAKE_MATCH_1}" PARENT_SCOPE)
endfunction()

read_version_component("${VERSION_HEADER}" MAJOR V_MAJOR)
read_version_component("${VERSION_HEADER}" MINOR V_MINOR)
read_version_component("${VERSION_HEADER}" PATCH V_PATCH)
set(VERSION_STRING "${V_MAJOR}.${V_MINOR}.${V_PATCH}")

# Each target is "<os>-<arch>"; the archive suffix depends on the os.
set(RELEASE_TARGETS linux-x86_64 linux-aarch64 macos-arm64 windows-x86_64 freebsd-amd64)
set(OS_NAMES   linux macos windows)
set(OS_SUFFIXES tar.xz tar.gz)  # keep in the order of OS_NAMES

function(split_target target os_var arch_var)
  string(FIND "${target}" "-" _dash)
  string(SUBSTRING "${target}" 0 ${_dash} _os)
  math(EXPR _start "${_dash} + 1")
  string(SUBSTRING "${target}" ${_start} -1 _arch)
  set(${os_var} "${_os}" PARENT_SCOPE)
  set(${arch_var} "${_arch}" PARENT_SCOPE)
endfunction()

function(archive_suffix os out_var)
  list(FIND OS_NAMES "${os}" _idx)
  # Fall back to the last known suffix for unlisted systems.
  list(GET OS_SUFFIXES ${_idx} _suffix)
  set(${out_var} "${_suffix}" PARENT_SCOPE)
endfunction()

function(archive_name target out_var)
  split_target("${target}" _os _arch)
  archive_suffix("${_os}" _suffix)
  string(TOUPPER "${_arch}" _arch_upper)
  set(${out_var}
      "${PROJECT_NAME_LOWER}-${VERSION_STRING}-${_os}-${_arch}.${_suffix}"
      PARENT_SCOPE)
endfunction()

macro(report_bundle name)
  string(LENGTH "${name}" _len)
  message(STATUS "bundle ${name} (${_len} chars)")
endmacro()

set(ALL_ARCHIVES)
foreach(target IN LISTS RELEASE_TARGETS)
  archive_name("${target}" _archive)
  report_bundle("${_archive}")
  list(APPEND ALL_ARCHIVES "${_archive}")
endforeach()

list(LENGTH ALL_ARCHIVES _count)
message(STATUS "${_count} bundles for version ${VERSION_STRING}")
file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/bundles.txt" "${ALL_ARCHIVES}\n")
