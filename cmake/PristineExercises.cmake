# The pristine exercises: the learner's files of every exercises/NN_name/ (each
# .cu and .cpp except check.cu) as they were handed out, kept in a folder of the
# build tree, <build>/exercises/pristine/NN_name/. The learner edits exercises/;
# whatever must know the exercise as handed out reads this copy or the
# manifest, never the learner's file:
#   the layout test (cmake/CheckExerciseLayout.cmake)  the pristine copy has TODO markers
#   chNN_pristine_check (label pristine)               the pristine copy fails its check
#   scripts/progress                                   "not started": the learner's file has the manifest's SHA-256
#
# "As handed out" is recorded once, in exercises/manifest.json (each file's
# SHA-256, written by scripts/handed-out --write and by scripts/make-student-copy),
# never derived from the learner's commits, so a git clone, a ZIP download and
# a --no-git copy behave the same. The pristine text of a file is found by its
# hash:
#   - the file in the tree, when it has the manifest's SHA-256 (untouched);
#   - else the copy already kept in this build folder, when it has that hash;
#   - else a version in git's history with that hash (git log of the file);
#   - else none: the learner changed the file before this build folder first
#     saw it, in a tree without its history. The layout test then checks the
#     file against the manifest only, and the exercise has no pristine check
#     (it matters only in a maintainer's tree, where the files are as recorded).
#   - with the environment variable LAB_PRISTINE_FROM=tree: the file as it is in
#     this tree, taken anew every time. scripts/gpu-check.sh sets it: it checks a
#     maintainer's tree, which may have been copied to a GPU machine without its
#     git history.
#
# Included: lab_keep_pristine_exercises(<source dir> <pristine dir>) refreshes
# the copy and sets, in the caller's scope,
#   LAB_PRISTINE_FOLDERS   the exercise folders, e.g. 01_kernel_launch (or 01b_name, a second one)
#   LAB_PRISTINE_FILES_<folder>  the learner's files of that folder, e.g. grid_stride_add.cu
#   LAB_PRISTINE_MISSING_<folder> those of them with no pristine text found (see above)
#   LAB_PRISTINE_NOTES     sentences about files whose pristine text is not the tree's
#   LAB_PRISTINE_PROBLEMS  sentences about the manifest (missing, or a file it does not list)
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
  set(manifest_path "${source_dir}/exercises/manifest.json")
  set(manifest "")
  if(EXISTS "${manifest_path}")
    file(READ "${manifest_path}" manifest)
  elseif(NOT from_tree)
    list(APPEND problems "exercises/manifest.json is missing (the exercises as handed out): run scripts/handed-out --write")
  endif()
  foreach(folder IN LISTS folders)
    set(exercise_dir "${source_dir}/exercises/${folder}")
    if(NOT IS_DIRECTORY "${exercise_dir}")
      continue()
    endif()
    list(APPEND kept_folders "${folder}")
    lab_exercise_learner_files("${exercise_dir}" files)
    set(LAB_PRISTINE_FILES_${folder} "${files}" PARENT_SCOPE)
    set(missing "")
    file(MAKE_DIRECTORY "${pristine_dir}/${folder}")
    foreach(file IN LISTS files)
      set(path "exercises/${folder}/${file}")
      set(kept "${pristine_dir}/${folder}/${file}")
      if(from_tree)
        file(COPY_FILE "${exercise_dir}/${file}" "${kept}" ONLY_IF_DIFFERENT)
        continue()
      endif()
      set(wanted "")
      if(manifest)
        string(JSON wanted ERROR_VARIABLE json_error GET "${manifest}" exercises "${folder}" files "${file}")
        if(json_error)
          set(wanted "")
        endif()
      endif()
      if(NOT wanted)
        if(manifest)
          list(APPEND problems "${path} is not in exercises/manifest.json: run scripts/handed-out --write")
        endif()
        list(APPEND missing "${file}")
        file(REMOVE "${kept}")
        continue()
      endif()
      file(SHA256 "${exercise_dir}/${file}" tree_hash)
      if(tree_hash STREQUAL wanted)
        file(COPY_FILE "${exercise_dir}/${file}" "${kept}" ONLY_IF_DIFFERENT)
        continue()
      endif()
      if(EXISTS "${kept}")
        file(SHA256 "${kept}" kept_hash)
        if(kept_hash STREQUAL wanted)
          continue()
        endif()
      endif()
      set(found FALSE)
      if(LAB_GIT_EXECUTABLE)
        # The commits that changed the file, newest first (none: git does not track it here).
        execute_process(COMMAND "${LAB_GIT_EXECUTABLE}" ${git_options} -C "${source_dir}" log -n 100 --format=%H -- "${path}"
          OUTPUT_VARIABLE commits ERROR_QUIET RESULT_VARIABLE failed OUTPUT_STRIP_TRAILING_WHITESPACE)
        if(failed)
          set(commits "")
        endif()
        string(REPLACE "\n" ";" commits "${commits}")
        foreach(commit IN LISTS commits)
          # OUTPUT_FILE keeps the bytes exactly as committed. "./" makes the path
          # relative to source_dir, also when the repository root is above it.
          execute_process(COMMAND "${LAB_GIT_EXECUTABLE}" ${git_options} -C "${source_dir}" show "${commit}:./${path}"
            OUTPUT_FILE "${scratch}" ERROR_QUIET RESULT_VARIABLE failed)
          if(NOT failed)
            file(SHA256 "${scratch}" committed_hash)
            if(committed_hash STREQUAL wanted)
              file(COPY_FILE "${scratch}" "${kept}" ONLY_IF_DIFFERENT)
              set(found TRUE)
              break()
            endif()
          endif()
        endforeach()
      endif()
      if(NOT found)
        file(REMOVE "${kept}")
        list(APPEND missing "${file}")
        if(IS_DIRECTORY "${source_dir}/solutions/${folder}")  # only there is a pristine check missed
          list(APPEND notes "${path} was changed before this build folder first saw it, and no version with the manifest's SHA-256 is in git here: no pristine check for it (nothing else changes)")
        endif()
      endif()
    endforeach()
    set(LAB_PRISTINE_MISSING_${folder} "${missing}" PARENT_SCOPE)
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
