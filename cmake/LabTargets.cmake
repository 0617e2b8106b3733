# The few functions every chapter, test and exercise is built with, so that all
# chapters have the same shape:
#   lab_add_lesson_library  a chapter's library (what main.cu, tests and exercises call)
#   lab_add_chapter   one executable per chapter, plus its command-line tests
#   lab_add_cpu_test  a doctest executable that runs anywhere          (label cpu)
#   lab_add_gpu_test  a doctest executable that needs a GPU; it exits 77 without
#                     one and ctest shows it as skipped, never as passed (label gpu);
#                     the exercise checks (exercises/CMakeLists.txt) are built with it
#   lab_add_tour_target  the `tour` target: build and run every chapter in order

set(LAB_SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}/..")
set(LAB_SKIP_CODE 77)

# Target-wide settings for every CUDA target of the project.
function(lab_cuda_settings target)
  # -lineinfo costs nothing at run time and lets compute-sanitizer and Nsight
  # point at source lines; Debug builds get full device debug info (-G) instead.
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>
    $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<CONFIG:Debug>>:-G>
    $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<NOT:$<CONFIG:Debug>>>:-lineinfo>
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic>)
endfunction()

# lab_add_lesson_library(<target> SOURCES <files> [LIBRARIES <libs>])
# A static library of a chapter's folder: its headers are public (the folder is
# on the include path of whatever links it), LIBRARIES are linked publicly.
function(lab_add_lesson_library target)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBRARIES" ${ARGN})
  add_library(${target} STATIC ${ARG_SOURCES})
  target_include_directories(${target} PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}")
  if(ARG_LIBRARIES)
    target_link_libraries(${target} PUBLIC ${ARG_LIBRARIES})
  endif()
  lab_cuda_settings(${target})
endfunction()

# lab_add_chapter(<target> SOURCES <files> LIBRARIES <libs> SMOKE_ARGS <args>)
# SMOKE_ARGS: small options for a quick full run (ctest's smoke test, the GPU
# check script, compute-sanitizer).
function(lab_add_chapter target)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBRARIES;SMOKE_ARGS" ${ARGN})
  add_executable(${target} ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE ${ARG_LIBRARIES} lab::cuda)
  lab_cuda_settings(${target})
  set_property(GLOBAL APPEND PROPERTY LAB_CHAPTERS ${target})
  string(REPLACE ";" " " smoke "${ARG_SMOKE_ARGS}")
  set_property(GLOBAL PROPERTY LAB_SMOKE_ARGS_${target} "${smoke}")

  if(NOT LAB_BUILD_TESTS)
    return()
  endif()
  string(REGEX MATCH "^ch[0-9]+" chapter_label "${target}")
  set(expect "${LAB_SOURCE_DIR}/cmake/ExpectExit.cmake")
  # --help works without a GPU and lists the options from the same table that parses them.
  add_test(NAME ${target}.cli.help
    COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=0 "-DEXPECT_REGEX=usage: ${target} .*--help .*--json <path>.*exit codes" -P ${expect}
            -- $<TARGET_FILE:${target}> --help)
  # An unknown option is a usage error: exit 2 with a message that names it.
  add_test(NAME ${target}.cli.unknown_option
    COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=2 "-DEXPECT_REGEX=unknown option '--no-such-option'"
            -P ${expect} -- $<TARGET_FILE:${target}> --no-such-option 1)
  # A value never starts with "--": the option before it has no value (and no
  # file named "--no-such" is written).
  add_test(NAME ${target}.cli.value_not_an_option
    COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=2 "-DEXPECT_REGEX=--json: needs a value"
            -P ${expect} -- $<TARGET_FILE:${target}> --json --no-such)
  # An option given twice is a usage error, not "the last one wins".
  add_test(NAME ${target}.cli.option_twice
    COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=2 "-DEXPECT_REGEX=--json: given twice"
            -P ${expect} -- $<TARGET_FILE:${target}> --json a.json --json b.json)
  # With every GPU hidden the chapter says why and exits 77, on any machine.
  add_test(NAME ${target}.cli.no_device
    COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=77 "-DEXPECT_REGEX=no usable CUDA device: "
            -P ${expect} -- $<TARGET_FILE:${target}>)
  set_tests_properties(${target}.cli.no_device PROPERTIES ENVIRONMENT "CUDA_VISIBLE_DEVICES=-1")
  set_tests_properties(${target}.cli.help ${target}.cli.unknown_option ${target}.cli.value_not_an_option
    ${target}.cli.option_twice ${target}.cli.no_device
    PROPERTIES LABELS "cpu;${chapter_label};cli")
  # The whole chapter with small sizes: verified results, exit 0 (skipped without a GPU).
  add_test(NAME ${target}.smoke COMMAND ${target} ${ARG_SMOKE_ARGS})
  set_tests_properties(${target}.smoke PROPERTIES
    LABELS "gpu;${chapter_label};smoke" SKIP_RETURN_CODE ${LAB_SKIP_CODE} RUN_SERIAL TRUE)
endfunction()

# lab_add_chapter_cli_test(<name> [NEEDS_GPU] <expected exit code> <regex> <executable target> <args...>)
# NEEDS_GPU: the check happens after the device is found (e.g. against its
# memory); without a GPU the program says "no usable CUDA device" and the test
# is reported as skipped (SKIP_REGULAR_EXPRESSION), never as passed.
function(lab_add_chapter_cli_test name)
  if(NOT LAB_BUILD_TESTS)
    return()
  endif()
  set(args ${ARGN})
  set(needs_gpu FALSE)
  list(GET args 0 first)
  if(first STREQUAL "NEEDS_GPU")
    set(needs_gpu TRUE)
    list(REMOVE_AT args 0)
  endif()
  list(POP_FRONT args code regex target)
  string(REGEX MATCH "^ch[0-9]+" chapter_label "${target}")
  add_test(NAME ${name}
    COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=${code} "-DEXPECT_REGEX=${regex}"
            -P "${LAB_SOURCE_DIR}/cmake/ExpectExit.cmake" -- $<TARGET_FILE:${target}> ${args})
  if(needs_gpu)
    set_tests_properties(${name} PROPERTIES LABELS "gpu;${chapter_label};cli"
      SKIP_REGULAR_EXPRESSION "no usable CUDA device: ")
  else()
    set_tests_properties(${name} PROPERTIES LABELS "cpu;${chapter_label};cli")
  endif()
endfunction()

# lab_add_skippable_cases(<target> <labels> <case>...): each doctest case named
# here runs as a ctest entry of its own, <target>.<case with _ for spaces>, which
# ctest shows as skipped when the case calls lab_test::skip() (exit 77); the
# entry <target> runs every other case. So a case that cannot run here is
# shown as skipped, never as passed.
function(lab_add_skippable_cases target labels)
  set(excluded "")
  foreach(test_case IN LISTS ARGN)
    string(REGEX REPLACE "[^A-Za-z0-9]+" "_" suffix "${test_case}")
    add_test(NAME ${target}.${suffix} COMMAND ${target} "--test-case=${test_case}")
    set_tests_properties(${target}.${suffix} PROPERTIES LABELS "${labels}" SKIP_RETURN_CODE ${LAB_SKIP_CODE})
    list(APPEND excluded "${test_case}")
  endforeach()
  if(excluded)
    list(JOIN excluded "," joined)
    set_tests_properties(${target} PROPERTIES ENVIRONMENT "LAB_TEST_CASE_EXCLUDE=${joined}")
  endif()
endfunction()

# lab_add_cpu_test(<target> SOURCES <files> LIBRARIES <libs> LABELS <labels> [SKIPPABLE <case>...])
function(lab_add_cpu_test target)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBRARIES;LABELS;SKIPPABLE" ${ARGN})
  add_executable(${target} ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE ${ARG_LIBRARIES} lab_cpu_test_main)
  lab_cuda_settings(${target})
  add_test(NAME ${target} COMMAND ${target})
  set_tests_properties(${target} PROPERTIES LABELS "cpu;${ARG_LABELS}")
  lab_add_skippable_cases(${target} "cpu;${ARG_LABELS}" ${ARG_SKIPPABLE})
endfunction()

# lab_add_gpu_test(<target> [EXCLUDE_FROM_ALL] [TIMEOUT <seconds>] SOURCES <files> LIBRARIES <libs> LABELS <labels>)
# The test's main() checks for a usable device first and exits 77 without one.
# GPU tests run one at a time: their timing assertions compare ratios measured
# in the same run, and a second test on the same GPU would distort them.
# EXCLUDE_FROM_ALL: built only when asked for (the exercise checks: a learner's
# half-written file must not break the build of everything else).
# TIMEOUT: ctest stops the test after that many seconds (an endless loop in a
# learner's kernel would otherwise hang the run).
function(lab_add_gpu_test target)
  cmake_parse_arguments(ARG "EXCLUDE_FROM_ALL" "TIMEOUT" "SOURCES;LIBRARIES;LABELS;SKIPPABLE" ${ARGN})
  if(ARG_EXCLUDE_FROM_ALL)
    add_executable(${target} EXCLUDE_FROM_ALL ${ARG_SOURCES})
  else()
    add_executable(${target} ${ARG_SOURCES})
  endif()
  target_link_libraries(${target} PRIVATE ${ARG_LIBRARIES} lab_gpu_test_main)
  lab_cuda_settings(${target})
  add_test(NAME ${target} COMMAND ${target})
  set_tests_properties(${target} PROPERTIES
    LABELS "gpu;${ARG_LABELS}" SKIP_RETURN_CODE ${LAB_SKIP_CODE} RUN_SERIAL TRUE)
  if(ARG_TIMEOUT)
    set_tests_properties(${target} PROPERTIES TIMEOUT ${ARG_TIMEOUT})
  endif()
  lab_add_skippable_cases(${target} "gpu;${ARG_LABELS}" ${ARG_SKIPPABLE})
  foreach(test_case IN LISTS ARG_SKIPPABLE)
    string(REGEX REPLACE "[^A-Za-z0-9]+" "_" suffix "${test_case}")
    set_tests_properties(${target}.${suffix} PROPERTIES RUN_SERIAL TRUE)
  endforeach()
endfunction()

# The `tour` target, the `lab_chapters` target (every chapter executable, built in
# parallel: scripts/gpu-check.sh builds them first) and the chapter list
# (build/chapters.tsv) that the tour and scripts/gpu-check.sh read: name, executable,
# smoke arguments.
function(lab_add_tour_target)
  get_property(chapters GLOBAL PROPERTY LAB_CHAPTERS)
  set(manifest "")
  foreach(chapter IN LISTS chapters)
    get_property(smoke GLOBAL PROPERTY LAB_SMOKE_ARGS_${chapter})
    string(APPEND manifest "${chapter}\t$<TARGET_FILE:${chapter}>\t${smoke}\n")
  endforeach()
  file(GENERATE OUTPUT "${CMAKE_BINARY_DIR}/chapters.tsv" CONTENT "${manifest}")
  add_custom_target(tour
    COMMAND ${CMAKE_COMMAND} -DMANIFEST=${CMAKE_BINARY_DIR}/chapters.tsv
            -DOUTPUT_DIR=${CMAKE_BINARY_DIR}/tour -P ${LAB_SOURCE_DIR}/cmake/RunTour.cmake
    DEPENDS ${chapters}
    USES_TERMINAL
    COMMENT "The tour: every chapter in order, with its default options")
  add_custom_target(lab_chapters DEPENDS ${chapters})
endfunction()
