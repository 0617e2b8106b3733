# The source rules of an exercise: what its check reads from the learner's
# files, on the CPU, before anything runs. Some wrong answers give the right
# output and the right timing, so that no run can tell them from a right one:
# exercise 05 done with one call of chapter 05's own schedule, exercise 12's
# synchronous double buffer that stamps its own times, 11b's host wait and
# second launch, 12b's whole-tile copy. Their check.cu names them in lines of
# the form
#
#   // source rule: refuse-if REGEX => MESSAGE      the build stops with MESSAGE
#   // source rule: fail-if REGEX => MESSAGE        the check fails with MESSAGE
#   // source rule: fail-unless REGEX => MESSAGE    the check fails with MESSAGE
#
# REGEX is a CMake regular expression matched against each learner's file with
# its comments removed and every newline and tab turned into a space (a call
# split over lines still matches: `name *\(`). A file begins with a space, so
# `[^A-Za-z0-9_:]name` matches a name at its start too.
#
#   cmake -DCHECK=<check.cu> -DFILES=<file;file> -DOUT=<header> -P source_rules.cmake
#
# writes OUT, a header the check includes (source_findings.h): the messages of
# the fail rules that the files break, as lab_source_findings[] (ends with
# nullptr), and the number of rules read; each also as "FILE:LINE: warning:
# MESSAGE" in the build's output. A refuse rule broken stops here with
# "FILE:LINE: error: MESSAGE" (the line of the match), so the build of that
# check fails and scripts/progress shows it as the first error; OUT is then not
# written. exercises/CMakeLists.txt runs it for every check whose check.cu has
# a rule; tests/exercise_source_rules_test.py runs it on made-up wrong answers.

cmake_minimum_required(VERSION 3.24)  # its policies: while(TRUE) and the rest as the project's

foreach(variable CHECK FILES OUT)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "source_rules.cmake: -D${variable}=... is missing")
  endif()
endforeach()

# The learner's text without its comments; newlines kept (for line numbers), so
# a block comment's newlines are kept as well.
function(lab_strip_comments text out)
  set(result "")
  while(TRUE)
    string(FIND "${text}" "/*" block)
    string(FIND "${text}" "//" line)
    if(block EQUAL -1 AND line EQUAL -1)
      break()
    endif()
    if(line GREATER -1 AND (block EQUAL -1 OR line LESS block))
      string(SUBSTRING "${text}" 0 ${line} before)
      string(SUBSTRING "${text}" ${line} -1 rest)
      string(FIND "${rest}" "\n" end)
      if(end EQUAL -1)
        set(text "")
      else()
        string(SUBSTRING "${rest}" ${end} -1 text)
      endif()
      string(APPEND result "${before}")
    else()
      string(SUBSTRING "${text}" 0 ${block} before)
      math(EXPR after "${block} + 2")
      string(SUBSTRING "${text}" ${after} -1 rest)
      string(FIND "${rest}" "*/" end)
      if(end EQUAL -1)
        set(comment "${rest}")
        set(text "")
      else()
        string(SUBSTRING "${rest}" 0 ${end} comment)
        math(EXPR end "${end} + 2")
        string(SUBSTRING "${rest}" ${end} -1 text)
      endif()
      string(REGEX REPLACE "[^\n]" "" newlines "${comment}")
      string(APPEND result "${before} ${newlines}")
    endif()
  endwhile()
  set(${out} "${result}${text}" PARENT_SCOPE)
endfunction()

# The rules: one "// source rule: KIND REGEX => MESSAGE" line each, read without CMake lists (a rule may hold ';').
file(READ "${CHECK}" check_text)
set(rules 0)
set(marker "// source rule: ")
string(LENGTH "${marker}" marker_length)
while(TRUE)
  string(FIND "${check_text}" "${marker}" at)
  if(at EQUAL -1)
    break()
  endif()
  math(EXPR at "${at} + ${marker_length}")
  string(SUBSTRING "${check_text}" ${at} -1 check_text)
  string(FIND "${check_text}" "\n" end)
  string(SUBSTRING "${check_text}" 0 ${end} rule)
  string(SUBSTRING "${check_text}" ${end} -1 check_text)
  string(FIND "${rule}" " => " arrow)
  string(FIND "${rule}" " " space)
  if(arrow EQUAL -1 OR space EQUAL -1 OR space GREATER arrow)
    message(FATAL_ERROR "${CHECK}: a source rule is not 'KIND REGEX => MESSAGE': ${rule}")
  endif()
  string(SUBSTRING "${rule}" 0 ${space} kind)
  if(NOT kind MATCHES "^(refuse-if|fail-if|fail-unless)$")
    message(FATAL_ERROR "${CHECK}: a source rule's kind is refuse-if, fail-if or fail-unless, not '${kind}'")
  endif()
  math(EXPR from "${space} + 1")
  math(EXPR length "${arrow} - ${from}")
  string(SUBSTRING "${rule}" ${from} ${length} rule_regex_${rules})
  math(EXPR from "${arrow} + 4")
  string(SUBSTRING "${rule}" ${from} -1 rule_message_${rules})
  set(rule_kind_${rules} "${kind}")
  math(EXPR rules "${rules} + 1")
endwhile()

# Each rule against each file; a fail-unless rule is kept when no file matches it.
set(findings "")
set(names "")
if(rules GREATER 0)
  math(EXPR last "${rules} - 1")
  foreach(index RANGE ${last})
    set(matched_${index} FALSE)
  endforeach()
endif()
foreach(file IN LISTS FILES)
  get_filename_component(name "${file}" NAME)
  string(APPEND names " ${name}")
  file(READ "${file}" text)
  lab_strip_comments(" ${text}" text)
  string(REGEX REPLACE "[\n\t\r]" " " flat "${text}")
  if(rules EQUAL 0)
    continue()
  endif()
  foreach(index RANGE ${last})
    string(REGEX MATCH "${rule_regex_${index}}" match "${flat}")
    if(match STREQUAL "")
      continue()
    endif()
    set(matched_${index} TRUE)
    if(rule_kind_${index} STREQUAL "fail-unless")
      continue()
    endif()
    string(FIND "${flat}" "${match}" position)
    string(SUBSTRING "${text}" 0 ${position} before)
    string(REGEX REPLACE "[^\n]" "" newlines "${before}")
    string(LENGTH "${newlines}" line)
    math(EXPR line "${line} + 1")
    string(STRIP "${match}" shown)
    string(REGEX REPLACE "^[^A-Za-z0-9_]+" "" shown "${shown}")  # the character before a name
    if(rule_kind_${index} STREQUAL "refuse-if")
      # Printed first (stderr), in a compiler's form: the first error scripts/progress shows.
      message(NOTICE "${file}:${line}: error: ${rule_message_${index}} (read from your source: `${shown}`)")
      message(FATAL_ERROR "source rule of ${CHECK} broken: the check is not built (see the line above)")
    endif()
    string(APPEND findings "${name}:${line}: ${rule_message_${index}} (read from your source: `${shown}`)\n")
    # Shown in the build's output too, for a learner without a GPU (the check reports it only where it runs).
    message(NOTICE "${file}:${line}: warning: ${rule_message_${index}} (a source rule: the check will fail on it)")
  endforeach()
endforeach()
if(rules GREATER 0)
  foreach(index RANGE ${last})
    if(rule_kind_${index} STREQUAL "fail-unless" AND NOT matched_${index})
      string(APPEND findings "${rule_message_${index}} (read from your source:${names})\n")
      message(NOTICE "${FILES}: warning: ${rule_message_${index}} (a source rule: the check will fail on it)")
    endif()
  endforeach()
endif()

# The header, one C string per finding.
set(header "// Written by exercises/source_rules.cmake from${names} and ${CHECK}: do not edit.\n#pragma once\n\n")
string(APPEND header "// The source rules read (their kinds: refuse-if, fail-if, fail-unless) and the fail rules broken.\n")
string(APPEND header "constexpr int lab_source_rules_read = ${rules};\n")
string(APPEND header "constexpr const char* lab_source_files_read = \"${names}\";  // each after a space\n")
string(APPEND header "constexpr const char* lab_source_findings[] = {\n")
while(NOT findings STREQUAL "")
  string(FIND "${findings}" "\n" end)
  string(SUBSTRING "${findings}" 0 ${end} finding)
  math(EXPR end "${end} + 1")
  string(SUBSTRING "${findings}" ${end} -1 findings)
  string(REPLACE "\\" "\\\\" finding "${finding}")
  string(REPLACE "\"" "\\\"" finding "${finding}")
  string(APPEND header "    \"${finding}\",\n")
endwhile()
string(APPEND header "    nullptr};\n")
file(WRITE "${OUT}.partial" "${header}")
file(RENAME "${OUT}.partial" "${OUT}")
