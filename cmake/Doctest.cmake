# doctest: the installed package first (Debian: doctest-dev), else a pinned release
# fetched by CMake. No copy of doctest lives in this repository.
find_package(doctest 2.4 CONFIG QUIET)
if(doctest_FOUND)
  message(STATUS "doctest: using the installed package (${doctest_DIR})")
else()
  message(STATUS "doctest: not installed, fetching release v2.4.11")
  include(FetchContent)
  FetchContent_Declare(doctest
    GIT_REPOSITORY https://github.com/doctest/doctest.git
    GIT_TAG v2.4.11
    GIT_SHALLOW TRUE)
  set(DOCTEST_NO_INSTALL ON CACHE BOOL "" FORCE)
  FetchContent_MakeAvailable(doctest)
endif()
