# Optional API and chapter documentation: a `docs` target when Doxygen is found.
# The README becomes the main page, every chapter README a page, and the common/
# headers (the helpers every chapter uses) are documented member by member.
find_package(Doxygen QUIET)
if(NOT DOXYGEN_FOUND)
  message(STATUS "Doxygen not found: no `docs` target (install doxygen to get one)")
  return()
endif()

set(DOXYGEN_PROJECT_NAME "CUDA Async Lab")
set(DOXYGEN_PROJECT_BRIEF "How GPU work is launched, synchronised, timed and overlapped")
set(DOXYGEN_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/docs")
set(DOXYGEN_USE_MDFILE_AS_MAINPAGE "${PROJECT_SOURCE_DIR}/README.md")
set(DOXYGEN_EXTENSION_MAPPING "cu=C++;cuh=C++")
set(DOXYGEN_FILE_PATTERNS "*.hpp;*.cuh;*.md")
set(DOXYGEN_RECURSIVE YES)
set(DOXYGEN_STRIP_FROM_PATH "${PROJECT_SOURCE_DIR}")
set(DOXYGEN_FULL_PATH_NAMES YES)
set(DOXYGEN_EXCLUDE_PATTERNS "*/build/*;*/docs/results/*")
set(DOXYGEN_EXCLUDE_SYMBOLS "detail")
set(DOXYGEN_PREDEFINED "__global__=;__device__=;__host__=;__forceinline__=;DOXYGEN")
set(DOXYGEN_WARN_IF_UNDOCUMENTED YES)
set(DOXYGEN_WARN_NO_PARAMDOC NO)
set(DOXYGEN_QUIET YES)
set(DOXYGEN_GENERATE_TREEVIEW YES)
# The theme: doxygen-awesome-css (Debian's package doxygen-awesome-css, installed by .ci/run;
# or -DLAB_DOXYGEN_AWESOME_DIR=<a release's folder>), sidebar-only layout with a dark-mode
# toggle, a copy button on code blocks and an interactive table of contents. Without it the
# site builds in Doxygen's own style.
find_path(LAB_DOXYGEN_AWESOME_DIR doxygen-awesome.css PATHS /usr/share/doxygen-awesome-css
  DOC "doxygen-awesome-css's folder (doxygen-awesome.css and its scripts)")
if(LAB_DOXYGEN_AWESOME_DIR)
  message(STATUS "docs: theme doxygen-awesome-css from ${LAB_DOXYGEN_AWESOME_DIR}")
  set(theme "${LAB_DOXYGEN_AWESOME_DIR}")
  set(DOXYGEN_TREEVIEW_WIDTH 335)  # the theme's --side-nav-fixed-width
  set(DOXYGEN_DISABLE_INDEX NO)    # the menu: the theme shows it on a phone, where the tree is hidden
  set(DOXYGEN_FULL_SIDEBAR NO)
  set(DOXYGEN_HTML_HEADER "${PROJECT_SOURCE_DIR}/docs/site/header.html")
  set(DOXYGEN_HTML_EXTRA_STYLESHEET "${theme}/doxygen-awesome.css" "${theme}/doxygen-awesome-sidebar-only.css"
      "${theme}/doxygen-awesome-sidebar-only-darkmode-toggle.css" "${PROJECT_SOURCE_DIR}/docs/site/lab.css")
  set(lab_theme_files "${theme}/doxygen-awesome-darkmode-toggle.js" "${theme}/doxygen-awesome-fragment-copy-button.js"
      "${theme}/doxygen-awesome-interactive-toc.js")
else()
  message(STATUS "docs: doxygen-awesome-css not found (Debian: doxygen-awesome-css): Doxygen's own style")
  set(DOXYGEN_TREEVIEW_WIDTH 330)  # room for "Chapter 06: pinned memory and non-blocking copies"
  set(DOXYGEN_HTML_EXTRA_STYLESHEET "${PROJECT_SOURCE_DIR}/docs/site/lab.css")
  set(lab_theme_files "")
endif()
# Full-text search over the pages' text: Doxygen's own (SEARCHENGINE, kept for the
# symbols) finds only symbols and titles, and its full-text options need a web
# server. lab-search.js searches an index written after Doxygen has run (below);
# the Markdown filter loads both on every page.
set(DOXYGEN_HTML_EXTRA_FILES "${PROJECT_SOURCE_DIR}/docs/site/lab-search.js" ${lab_theme_files})
set(DOXYGEN_HAVE_DOT NO)
# The figures the pages show (python/figures.py draws them from docs/results/).
set(DOXYGEN_IMAGE_PATH "${PROJECT_SOURCE_DIR}/docs/figures")
# The pages link any file of the repository, as GitHub shows them; this filter
# points those links at the site's own copy of the files (html/repo/, copied
# below) and the figures at IMAGE_PATH (scripts/doxygen_md_filter.py says how).
set(DOXYGEN_FILTER_PATTERNS "*.md=${PROJECT_SOURCE_DIR}/scripts/doxygen_md_filter.py")
if(LAB_DOCS_WARN_AS_ERROR)
  set(DOXYGEN_WARN_AS_ERROR FAIL_ON_WARNINGS)
endif()

# The chapters first and in order, then the exercises, the reference pages, common/.
doxygen_add_docs(docs
  README.md chapters exercises/README.md docs common
  WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
  COMMENT "Building the HTML documentation into ${CMAKE_BINARY_DIR}/docs/html")

# The site's own copy of the files the pages link (sources, exercises, runs).
set(lab_site_copy "${CMAKE_BINARY_DIR}/docs/html/repo")
foreach(folder IN ITEMS chapters common docs exercises solutions python scripts tests cmake)
  add_custom_command(TARGET docs POST_BUILD
    COMMAND "${CMAKE_COMMAND}" -E copy_directory "${PROJECT_SOURCE_DIR}/${folder}" "${lab_site_copy}/${folder}")
endforeach()
add_custom_command(TARGET docs POST_BUILD
  COMMAND "${CMAKE_COMMAND}" -E copy README.md CMakeLists.txt CMakePresets.json "${lab_site_copy}/"
  WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}")

# The search index of every page's text (scripts/site_search_index.py, standard library only),
# and the highlighted source pages the pages' source links open (scripts/site_sources.py:
# with the pinned check tools' Python, build/tools from scripts/tools, where Pygments is;
# unhighlighted pages otherwise).
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  set(lab_sources_python "${PROJECT_SOURCE_DIR}/build/tools/bin/python")
  if(NOT EXISTS "${lab_sources_python}")
    set(lab_sources_python "${Python3_EXECUTABLE}")
  endif()
  add_custom_command(TARGET docs POST_BUILD
    COMMAND "${lab_sources_python}" "${PROJECT_SOURCE_DIR}/scripts/site_sources.py" "${CMAKE_BINARY_DIR}/docs/html")
  add_custom_command(TARGET docs POST_BUILD
    COMMAND Python3::Interpreter "${PROJECT_SOURCE_DIR}/scripts/site_search_index.py" "${CMAKE_BINARY_DIR}/docs/html")
else()
  message(STATUS "Python 3 not found: the docs target builds no full-text search index")
endif()
