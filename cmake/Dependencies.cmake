# The libraries this project uses instead of writing its own: CLI11 (command
# lines), nlohmann-json (JSON) and, for the tests, doctest. Each is taken from
# the installed package when there is one (Debian/Ubuntu: libcli11-dev,
# nlohmann-json3-dev, doctest-dev), else CMake fetches a pinned release. No copy
# of any of them lives in this repository. One STATUS line says which was used.
include(FetchContent)

# CLI11: tokenises and matches the command line inside common/options.cpp only
# (linked PRIVATE to lab_host, so that no chapter compiles its headers).
find_package(CLI11 CONFIG QUIET)
if(CLI11_FOUND)
  message(STATUS "CLI11: using the installed package ${CLI11_VERSION} (${CLI11_DIR})")
else()
  message(STATUS "CLI11: not installed, fetching release v2.4.2")
  FetchContent_Declare(CLI11
    GIT_REPOSITORY https://github.com/CLIUtils/CLI11.git
    GIT_TAG v2.4.2
    GIT_SHALLOW TRUE)
  set(CLI11_PRECOMPILED OFF CACHE BOOL "" FORCE)
  set(CLI11_BUILD_TESTS OFF CACHE BOOL "" FORCE)
  set(CLI11_BUILD_EXAMPLES OFF CACHE BOOL "" FORCE)
  set(CLI11_BUILD_DOCS OFF CACHE BOOL "" FORCE)
  set(CLI11_INSTALL OFF CACHE BOOL "" FORCE)
  FetchContent_MakeAvailable(CLI11)
endif()

# nlohmann-json: 3.10 or newer installed, else the 3.11.3 release tarball (the
# single-include tree, much smaller than the git repository).
find_package(nlohmann_json 3.10 CONFIG QUIET)
if(nlohmann_json_FOUND)
  message(STATUS "nlohmann-json: using the installed package ${nlohmann_json_VERSION} (${nlohmann_json_DIR})")
else()
  message(STATUS "nlohmann-json: not installed, fetching release v3.11.3")
  FetchContent_Declare(nlohmann_json
    URL https://github.com/nlohmann/json/releases/download/v3.11.3/json.tar.xz
    URL_HASH SHA256=d6c65aca6b1ed68e7a182f4757257b107ae403032760ed6ef121c9d55e81757d
    DOWNLOAD_EXTRACT_TIMESTAMP TRUE)
  set(JSON_BuildTests OFF CACHE BOOL "" FORCE)
  set(JSON_Install OFF CACHE BOOL "" FORCE)
  FetchContent_MakeAvailable(nlohmann_json)
endif()

# doctest: only when the tests are built.
if(LAB_BUILD_TESTS)
  find_package(doctest 2.4 CONFIG QUIET)
  if(doctest_FOUND)
    message(STATUS "doctest: using the installed package (${doctest_DIR})")
  else()
    message(STATUS "doctest: not installed, fetching release v2.4.11")
    FetchContent_Declare(doctest
      GIT_REPOSITORY https://github.com/doctest/doctest.git
      GIT_TAG v2.4.11
      GIT_SHALLOW TRUE)
    set(DOCTEST_NO_INSTALL ON CACHE BOOL "" FORCE)
    FetchContent_MakeAvailable(doctest)
  endif()
endif()
