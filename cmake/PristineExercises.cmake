# The pristine exercises: the learner's files of every exercises/NN_name/ (each
# .cu and .cpp except check.cu) as they were handed out, kept in a folder of the
# build tree, <build>/exercises/pristine/NN_name/. The learner edits exercises/;
# whatever must know the exercise as handed out reads this copy, never the
# learner's file:
#   the layout test (cmake/CheckExerciseLayout.cmake)  the pristine copy has TODO markers
#   chNN_pristine_check (label pristine)               the pristine copy fails its check
#   scripts/progress                                   "not started": the learner's file equals it
#
# Where the pristine text comes from:
#   - a file git tracks: its newest committed version that still has a TODO
#     marker. That is HEAD's version in the project's own tree; a learner who
#     commits a solution keeps the version that was handed out (the walk back
#     is noted, see LAB_PRISTINE_NOTES). Edits not yet committed are not
#     pristine: a maintainer reworking an exercise commits it before the
#     self-check sees it.
#   - a file git does not track (a student copy made with --no-git, a tarball):
#     the file as this build folder first saw it, kept from then on and never
#     refreshed. (Delete the folder to take a new copy.)
#   - with the environment variable LAB_PRISTINE_FROM=tree: the file as it is in
#     this tree, taken anew every time. scripts/gpu-check.sh sets it: it checks a
#     maintainer's tree, which may have been copied to a GPU machine without its
#     newest git history.
#
# Included: lab_keep_pristine_exercises(<source dir> <pristine dir>) refreshes
# the copy and sets, in the caller's scope,
#   LAB_PRISTINE_FOLDERS   the exercise folders, e.g. 01_kernel_launch (or 01b_name, a second one)
#   LAB_PRISTINE_FILES_<folder>  the learner's files of that folder, e.g. grid_stride_add.cu
#   LAB_PRISTINE_NOTES     sentences about files whose pristine text is not HEAD's
#   LAB_PRISTINE_PROBLEMS  sentences about a committed exercise that is its own solution
# As a script (the build and scripts/progress refresh the copy this way):
#   cmake -DSOURCE_DIR=<repo> -DPRISTINE_DIR=<folder> -P cmake/PristineExercises.cmake

# The project's policies (IN_LIST) also in script mode, without changing the includer's.
cmake_policy(PUSH)
cmake_policy(VERSION 3.24)

# The learner's files of one exercise folder: every .cu and .cpp but the check.
function(lab_exercise_learner_files exercise_dir out)
  file(GLOB files RELATIVE "${exercise_dir}" "${exercise_dir}/*.cu" "${exercise_dir}/*.cpp")
  list(REMOVE_ITEM files check.cu)
  list(SORT files)
  set(${out} "${files}" PARENT_SCOPE)
endfunction()

# Does @p path exist and hold a TODO marker?
function(lab_file_has_todo path out)
  set(found FALSE)
  if(EXISTS "${path}")
    file(STRINGS "${path}" todo_lines REGEX "TODO" LIMIT_COUNT 1)
    if(todo_lines)
      set(found TRUE)
    endif()
  endif()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

function(lab_keep_pristine_exercises source_dir pristine_dir)
  find_program(LAB_GIT_EXECUTABLE git)
  # NN_name, or NNx_name for a further exercise of chapter NN (01b_name).
  file(GLOB folders LIST_DIRECTORIES true RELATIVE "${source_dir}/exercises" "${source_dir}/exercises/[0-9][0-9]*_*")
  list(FILTER folders INCLUDE REGEX "^[0-9][0-9][a-z]?_")
  list(SORT folders)
  set(kept_folders "")
  set(notes "")
  set(problems "")
  set(scratch "${pristine_dir}/.from-git")
  # A checkout copied to another machine may belong to another user; git then
  # refuses to read it ("dubious ownership") unless told that this one folder is safe.
  set(git_options -c "safe.directory=${source_dir}")
  set(from_tree FALSE)
  if("$ENV{LAB_PRISTINE_FROM}" STREQUAL "tree")
    set(from_tree TRUE)
  endif()
  foreach(folder IN LISTS folders)
    set(exercise_dir "${source_dir}/exercises/${folder}")
    if(NOT IS_DIRECTORY "${exercise_dir}")
      continue()
    endif()
    list(APPEND kept_folders "${folder}")
    lab_exercise_learner_files("${exercise_dir}" files)
    set(LAB_PRISTINE_FILES_${folder} "${files}" PARENT_SCOPE)
    file(MAKE_DIRECTORY "${pristine_dir}/${folder}")
    foreach(file IN LISTS files)
      set(path "exercises/${folder}/${file}")
      set(kept "${pristine_dir}/${folder}/${file}")
      set(commits "")
      if(LAB_GIT_EXECUTABLE AND NOT from_tree)
        # The commits that changed the file, newest first (none: git does not track it here).
        execute_process(COMMAND "${LAB_GIT_EXECUTABLE}" ${git_options} -C "${source_dir}" log -n 100 --format=%H -- "${path}"
          OUTPUT_VARIABLE commits ERROR_QUIET RESULT_VARIABLE failed OUTPUT_STRIP_TRAILING_WHITESPACE)
        if(failed)
          set(commits "")
        endif()
        string(REPLACE "\n" ";" commits "${commits}")
      endif()
      if(commits)
        set(chosen "")
        set(newest TRUE)
        foreach(commit IN LISTS commits)
          # OUTPUT_FILE keeps the bytes exactly as committed. "./" makes the path
          # relative to source_dir, also when the repository root is above it.
          execute_process(COMMAND "${LAB_GIT_EXECUTABLE}" ${git_options} -C "${source_dir}" show "${commit}:./${path}"
            OUTPUT_FILE "${scratch}" ERROR_QUIET RESULT_VARIABLE failed)
          if(NOT failed)
            lab_file_has_todo("${scratch}" has_todo)
            if(has_todo)
              set(chosen ${commit})
              break()
            endif()
            if(newest AND EXISTS "${source_dir}/solutions/${folder}/${file}")
              file(SHA256 "${scratch}" committed_hash)
              file(SHA256 "${source_dir}/solutions/${folder}/${file}" solution_hash)
              if(committed_hash STREQUAL solution_hash)
                list(APPEND problems "${path} as committed is identical to solutions/${folder}/${file}: the exercise was replaced by its solution")
              endif()
            endif()
          endif()
          set(newest FALSE)
        endforeach()
        if(chosen)
          if(NOT newest)
            string(SUBSTRING "${chosen}" 0 10 short)
            list(APPEND notes "${path}: the newest committed version has no TODO marker (a solution, committed?), so the pristine copy is the one of commit ${short}")
          endif()
          file(COPY_FILE "${scratch}" "${kept}" ONLY_IF_DIFFERENT)
        else()
          # No committed version with a TODO marker: take HEAD's, and let the layout test say so.
          execute_process(COMMAND "${LAB_GIT_EXECUTABLE}" ${git_options} -C "${source_dir}" show "HEAD:./${path}"
            OUTPUT_FILE "${scratch}" ERROR_QUIET RESULT_VARIABLE failed)
          if(failed)
            file(COPY_FILE "${exercise_dir}/${file}" "${kept}" ONLY_IF_DIFFERENT)
          else()
            file(COPY_FILE "${scratch}" "${kept}" ONLY_IF_DIFFERENT)
          endif()
        endif()
      elseif(from_tree OR NOT EXISTS "${kept}")
        file(COPY_FILE "${exercise_dir}/${file}" "${kept}" ONLY_IF_DIFFERENT)
      endif()
    endforeach()
    # Files of an earlier layout of the exercise (renamed or removed since) go.
    file(GLOB stale RELATIVE "${pristine_dir}/${folder}" "${pristine_dir}/${folder}/*")
    foreach(file IN LISTS stale)
      if(NOT file IN_LIST files)
        file(REMOVE "${pristine_dir}/${folder}/${file}")
      endif()
    endforeach()
  endforeach()
  file(REMOVE "${scratch}")
  set(LAB_PRISTINE_FOLDERS "${kept_folders}" PARENT_SCOPE)
  set(LAB_PRISTINE_NOTES "${notes}" PARENT_SCOPE)
  set(LAB_PRISTINE_PROBLEMS "${problems}" PARENT_SCOPE)
endfunction()

cmake_policy(POP)

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  if(NOT SOURCE_DIR OR NOT PRISTINE_DIR)
    message(FATAL_ERROR "usage: cmake -DSOURCE_DIR=<repo> -DPRISTINE_DIR=<folder> -P PristineExercises.cmake")
  endif()
  lab_keep_pristine_exercises("${SOURCE_DIR}" "${PRISTINE_DIR}")
endif()
