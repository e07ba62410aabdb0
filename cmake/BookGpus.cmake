# SPDX-License-Identifier: MIT
# The book's reference GPUs and the GPU a build's records are of.
#
# book/gpus.json names the reference GPUs (BOOK_REFERENCE_GPUS, names as the
# device gives them) and the lead GPU (BOOK_GPU_LEAD), the one the pages lead
# with; book_gpu_slug gives a GPU's recordings folder (recordings/<slug>/). Read
# strictly: an unknown key, a GPU named twice, a lead that is no reference GPU
# is an error naming the file and line. _book_live_gpu_model asks nvidia-smi
# which GPU this machine has (cmake/BookCuda.cmake: the live GPU a build records).
# Tests: book.bad.gpus-* and book.gpus-live-model (tests/book/gpus.cmake).
include_guard(GLOBAL)
include(BookHelpers)

get_filename_component(_book_gpus_default "${CMAKE_CURRENT_LIST_DIR}/../book/gpus.json" ABSOLUTE)
set(BOOK_GPUS_FILE "${_book_gpus_default}" CACHE FILEPATH
    "The book's reference GPUs and its lead GPU (book/gpus.json)")

# The recordings folder of a GPU: "NVIDIA H100 80GB HBM3" -> nvidia-h100-80gb-hbm3.
function(book_gpu_slug out name)
  string(TOLOWER "${name}" slug)
  string(REGEX REPLACE "[^a-z0-9]+" "-" slug "${slug}")
  string(REGEX REPLACE "^-|-$" "" slug "${slug}")
  set(${out} "${slug}" PARENT_SCOPE)
endfunction()

# <text> with every character a regular expression treats specially escaped, in <out>.
function(_book_regex_escape out text)
  string(REGEX REPLACE "([][.*+?^$(){}|\\])" "\\\\\\1" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# Fails naming <file>:<line of the first match of regex> (1 where none) and the
# message (the arguments after regex, joined).
function(_book_gpus_error file text regex)
  _book_line_of(line "${text}" "${regex}")
  if(line EQUAL 0)
    set(line 1)
  endif()
  string(JOIN "" message ${ARGN})
  message(FATAL_ERROR "${file}:${line}: ${message}")
endfunction()

# Fails naming <file>:<line> and what string(JSON) found malformed there.
function(_book_json_error file err)
  set(line 1)
  if(err MATCHES "Line ([0-9]+)")
    set(line "${CMAKE_MATCH_1}")
  endif()
  string(REGEX REPLACE "^failed parsing json string: \\* Line [0-9]+, Column [0-9]+\n *" ""
         why "${err}")
  string(STRIP "${why}" why)
  message(FATAL_ERROR "${file}:${line}: malformed JSON: ${why}")
endfunction()

# Fails naming <file>:<line of the key "<key>":> and the message.
function(_book_gpus_error_at_key file text key)
  _book_regex_escape(k "${key}")
  _book_gpus_error("${file}" "${text}" "\"${k}\"[ \n]*:" ${ARGN})
endfunction()

# Reads a JSON file into <out> (its text), failing at the line string(JSON) names
# where it is malformed, or where it is no JSON object.
function(_book_json_object out file what)
  if(NOT EXISTS "${file}")
    message(FATAL_ERROR "${file}: ${what} do not exist")
  endif()
  file(READ "${file}" text)
  string(JSON type ERROR_VARIABLE err TYPE "${text}")
  if(err)
    _book_json_error("${file}" "${err}")
  endif()
  if(NOT type STREQUAL "OBJECT")
    _book_gpus_error("${file}" "${text}" "[^ \n]" "${what} are a JSON object")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# Fails at the first key of the JSON object <json> (inside <text> of <file>)
# that does not match <allowed>, a regular expression; <what> says which keys are.
function(_book_json_keys file text json allowed what)
  string(JSON n LENGTH "${json}")
  set(i 0)
  while(i LESS n)
    string(JSON k MEMBER "${json}" ${i})
    if(NOT k MATCHES "^(${allowed})$")
      _book_gpus_error_at_key("${file}" "${text}" "${k}" "unknown key '${k}' (${what})")
    endif()
    math(EXPR i "${i} + 1")
  endwhile()
endfunction()

# One GPU of book/gpus.json (<gpu>, the i-th) into <name> and <short>.
function(_book_read_gpu name_out short_out file text gpu i)
  string(JSON t TYPE "${text}" gpus ${i})
  if(NOT t STREQUAL "OBJECT")
    _book_gpus_error("${file}" "${text}" "\"gpus\"" "GPU ${i} of \"gpus\" is not an object")
  endif()
  _book_json_keys("${file}" "${text}" "${gpu}" "name|short" "a GPU has \"name\" and \"short\"")
  foreach(k name short)
    string(JSON kt ERROR_VARIABLE err TYPE "${gpu}" ${k})
    string(JSON v ERROR_VARIABLE err2 GET "${gpu}" ${k})
    if(err OR NOT kt STREQUAL "STRING" OR v STREQUAL "")
      _book_gpus_error("${file}" "${text}" "\"gpus\""
                       "GPU ${i} of \"gpus\" needs a \"name\" (as the device gives it) and a "
                       "\"short\" name (as a sentence gives it), each a non-empty string")
    endif()
    set(${k} "${v}")
  endforeach()
  set(${name_out} "${name}" PARENT_SCOPE)
  set(${short_out} "${short}" PARENT_SCOPE)
endfunction()

# Reads <file> into BOOK_REFERENCE_GPUS (the names, in the file's order),
# BOOK_GPU_LEAD and, for each GPU, BOOK_GPU_SHORT_<slug> (how a sentence names it).
function(_book_read_gpus file)
  _book_json_object(text "${file}" "the book's reference GPUs (BOOK_GPUS_FILE)")
  _book_json_keys("${file}" "${text}" "${text}" "about|lead|gpus"
                  "the file has \"about\", \"lead\" and \"gpus\"")
  string(JSON gtype ERROR_VARIABLE err TYPE "${text}" gpus)
  if(err OR NOT gtype STREQUAL "ARRAY")
    _book_gpus_error("${file}" "${text}" "\"gpus\""
                     "\"gpus\" should be a non-empty array of the reference GPUs")
  endif()
  string(JSON count LENGTH "${text}" gpus)
  set(names "")
  set(slugs "")
  set(shorts "")
  set(i 0)
  while(i LESS count)
    string(JSON gpu GET "${text}" gpus ${i})
    _book_read_gpu(name short "${file}" "${text}" "${gpu}" ${i})
    book_gpu_slug(slug "${name}")
    foreach(pair "name;${name};${names}" "slug;${slug};${slugs}" "short;${short};${shorts}")
      list(POP_FRONT pair what value)
      if(value IN_LIST pair)
        _book_regex_escape(v "${value}")
        _book_gpus_error("${file}" "${text}" "\"${v}\""
                         "two reference GPUs have the ${what} '${value}' (the first named here)")
      endif()
    endforeach()
    list(APPEND names "${name}")
    list(APPEND slugs "${slug}")
    list(APPEND shorts "${short}")
    set(BOOK_GPU_SHORT_${slug} "${short}" PARENT_SCOPE)
    math(EXPR i "${i} + 1")
  endwhile()
  string(JSON lead ERROR_VARIABLE err GET "${text}" lead)
  if(err OR NOT lead IN_LIST names)
    string(REPLACE ";" ", " known "${names}")
    _book_gpus_error("${file}" "${text}" "\"lead\""
                     "\"lead\" should name one of the reference GPUs (${known})")
  endif()
  set(BOOK_REFERENCE_GPUS "${names}" PARENT_SCOPE)
  set(BOOK_GPU_LEAD "${lead}" PARENT_SCOPE)
endfunction()

# The model of this machine's GPUs (nvidia-smi --query-gpu=name), in <out>. The
# GPUs of a machine whose runs the book records are of one model: the GPU tests
# spread over every GPU (ctest-resources.json), so two models would mix in one
# recording; that is an error naming them.
function(_book_live_gpu_model out smi)
  execute_process(COMMAND "${smi}" --query-gpu=name --format=csv,noheader
                  OUTPUT_VARIABLE listed RESULT_VARIABLE rc ERROR_VARIABLE err)
  string(STRIP "${listed}" listed)
  if(NOT rc EQUAL 0 OR listed STREQUAL "")
    message(FATAL_ERROR "${smi} --query-gpu=name --format=csv,noheader named no GPU "
                        "(exit ${rc}): ${err}")
  endif()
  string(REPLACE "\n" ";" models "${listed}")
  list(TRANSFORM models STRIP)
  list(REMOVE_DUPLICATES models)
  list(LENGTH models n)
  if(NOT n EQUAL 1)
    string(REPLACE ";" ", " models "${models}")
    message(FATAL_ERROR "This machine has GPUs of several models (${models}): a build runs "
                        "its GPU programs on every GPU nvidia-smi lists, and records one model; "
                        "build on a machine whose GPUs are all of one model.")
  endif()
  set(${out} "${models}" PARENT_SCOPE)
endfunction()

# The compute capability of this machine's GPUs (nvidia-smi
# --query-gpu=compute_cap: "7.5" -> 75), in <out>; the lowest where they differ
# (the GPU tests spread over all of them); empty where nvidia-smi does not say
# (a driver older than 510): then no run is skipped for its capability, and
# the configure step says so. Read with book_program's NEEDS_CC
# (cmake/BookPrograms.cmake, cmake/BookRuns.cmake).
function(_book_live_gpu_cc out smi)
  execute_process(COMMAND "${smi}" --query-gpu=compute_cap --format=csv,noheader
                  OUTPUT_VARIABLE listed RESULT_VARIABLE rc ERROR_QUIET)
  set(lowest "")
  if(rc EQUAL 0)
    string(REPLACE "\n" ";" caps "${listed}")
    foreach(c IN LISTS caps)
      string(STRIP "${c}" c)
      if(c MATCHES "^([0-9]+)\\.([0-9])$")
        set(cc "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
        if(lowest STREQUAL "" OR cc LESS lowest)
          set(lowest "${cc}")
        endif()
      endif()
    endforeach()
  endif()
  set(${out} "${lowest}" PARENT_SCOPE)
endfunction()

# A compute capability as the book writes it: 90 -> 9.0, 75 -> 7.5, 100 -> 10.0.
function(book_cc_text out cc)
  string(REGEX REPLACE "^([0-9]+)([0-9])[af]?$" "\\1.\\2" text "${cc}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

_book_read_gpus("${BOOK_GPUS_FILE}")

# ---- runs that wait for a GPU: recordings/pending.json ---------------------------
# A GPU program changed while no GPU could be had lands with its runs declared
# pending, each for the reference GPUs that have not recorded it since:
#   {"runs": {"<key>/<run>": {"reason": "...", "gpus": ["NVIDIA H200", ...]}}}
# `tools/book record` takes the GPU it recorded off each run it recorded (and a
# run off the file once no GPU waits for it). A pending run's recording on such a
# GPU may be stale or missing: its page says the output awaits a run, its test
# (records.*) reports it skipped by name, no claim on it counts as checked, and a
# release build (BOOK_RELEASE) refuses one pending on the lead GPU.
set(BOOK_PENDING_FILE "${CMAKE_SOURCE_DIR}/recordings/pending.json" CACHE FILEPATH
    "The runs whose recordings wait for a GPU (recordings/pending.json)")

# One pending run <run> of <text> (of <file>): its name, reason and GPUs.
function(_book_read_pending_run file text run)
  _book_regex_escape(r "${run}")
  set(at "\"${r}\"[ \n]*:")
  if(NOT run MATCHES "^ch[0-9][0-9]-[a-z0-9-]+/[a-z0-9][a-z0-9_.-]*$")
    _book_gpus_error("${file}" "${text}" "${at}"
                     "'${run}' is no run's name (<chapter key>/<run>, as book_run declares it)")
  endif()
  string(JSON t TYPE "${text}" runs "${run}")
  if(NOT t STREQUAL "OBJECT")
    _book_gpus_error("${file}" "${text}" "${at}"
                     "pending run ${run} should be {\"reason\": ..., \"gpus\": [...]}")
  endif()
  string(JSON entry GET "${text}" runs "${run}")
  _book_json_keys("${file}" "${text}" "${entry}" "reason|gpus"
                  "a pending run has \"reason\" and \"gpus\"")
  string(JSON rt ERROR_VARIABLE err TYPE "${entry}" reason)
  string(JSON reason ERROR_VARIABLE err2 GET "${entry}" reason)
  if(err OR NOT rt STREQUAL "STRING" OR reason STREQUAL "")
    _book_gpus_error("${file}" "${text}" "${at}"
                     "pending run ${run} needs a \"reason\" (why it waits for a GPU)")
  endif()
  if(reason MATCHES ";")
    # CMake splits a list at ';', and the reason reaches the run's tests as one argument.
    _book_gpus_error("${file}" "${text}" "${at}"
                     "pending run ${run}: its \"reason\" holds a semicolon, which the build "
                     "cannot pass on whole (CMake splits lists at it): write a comma or a new "
                     "sentence instead")
  endif()
  string(JSON gt ERROR_VARIABLE err TYPE "${entry}" gpus)
  string(JSON ng ERROR_VARIABLE err2 LENGTH "${entry}" gpus)
  if(err OR NOT gt STREQUAL "ARRAY" OR ng EQUAL 0)
    _book_gpus_error("${file}" "${text}" "${at}"
                     "pending run ${run} needs \"gpus\": the reference GPUs it waits for")
  endif()
  set(seen "")
  set(j 0)
  while(j LESS ng)
    string(JSON gpu GET "${entry}" gpus ${j})
    if(NOT gpu IN_LIST BOOK_REFERENCE_GPUS OR gpu IN_LIST seen)
      string(REPLACE ";" ", " known "${BOOK_REFERENCE_GPUS}")
      _book_regex_escape(g "${gpu}")
      _book_gpus_error("${file}" "${text}" "\"${g}\""
                       "pending run ${run}: '${gpu}' is no reference GPU or is named twice "
                       "(the reference GPUs, in ${BOOK_GPUS_FILE}: ${known})")
    endif()
    list(APPEND seen "${gpu}")
    math(EXPR j "${j} + 1")
  endwhile()
endfunction()

# Reads BOOK_PENDING_FILE into BOOK_PENDING_TEXT (its JSON) and BOOK_PENDING_RUNS
# (the runs it names): unknown keys, a reason that is not text, a GPU that is no
# reference GPU are errors naming the file and line. A missing file is none pending.
function(_book_read_pending file)
  set(BOOK_PENDING_TEXT "{\"runs\": {}}" PARENT_SCOPE)
  set(BOOK_PENDING_RUNS "" PARENT_SCOPE)
  if(NOT EXISTS "${file}")
    return()
  endif()
  set_property(DIRECTORY "${CMAKE_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${file}")
  _book_json_object(text "${file}" "the pending runs (BOOK_PENDING_FILE)")
  _book_json_keys("${file}" "${text}" "${text}" "about|runs"
                  "the file has \"about\" and \"runs\"")
  string(JSON rtype ERROR_VARIABLE err TYPE "${text}" runs)
  if(err OR NOT rtype STREQUAL "OBJECT")
    _book_gpus_error("${file}" "${text}" "\"runs\""
                     "\"runs\" should be an object: {\"<key>/<run>\": {\"reason\": ..., "
                     "\"gpus\": [...]}}")
  endif()
  string(JSON count LENGTH "${text}" runs)
  set(names "")
  set(i 0)
  while(i LESS count)
    string(JSON run MEMBER "${text}" runs ${i})
    _book_read_pending_run("${file}" "${text}" "${run}")
    list(APPEND names "${run}")
    math(EXPR i "${i} + 1")
  endwhile()
  set(BOOK_PENDING_TEXT "${text}" PARENT_SCOPE)
  set(BOOK_PENDING_RUNS "${names}" PARENT_SCOPE)
endfunction()

# The reason run <name> waits for <gpu> (recordings/pending.json), or "" in <out>.
function(book_pending_reason out name gpu)
  set(reason "")
  if(name IN_LIST BOOK_PENDING_RUNS)
    string(JSON gpus GET "${BOOK_PENDING_TEXT}" runs "${name}" gpus)
    string(JSON ng LENGTH "${gpus}")
    set(j 0)
    while(j LESS ng)
      string(JSON g GET "${gpus}" ${j})
      if(g STREQUAL gpu)
        string(JSON reason GET "${BOOK_PENDING_TEXT}" runs "${name}" reason)
      endif()
      math(EXPR j "${j} + 1")
    endwhile()
  endif()
  set(${out} "${reason}" PARENT_SCOPE)
endfunction()

# At book_finish: every pending run of a chapter in this build is a declared GPU
# run (a run of a chapter left out by BOOK_CHAPTERS is not checked here).
function(_book_check_pending)
  if(NOT EXISTS "${BOOK_PENDING_FILE}")
    return()
  endif()
  file(READ "${BOOK_PENDING_FILE}" text)
  get_property(runs GLOBAL PROPERTY BOOK_RUNS)
  # The chapters of this build: those found, and those whose runs it declares.
  book_chapter_keys(keys)
  foreach(run IN LISTS runs)
    string(REGEX REPLACE "/.*" "" key "${run}")
    list(APPEND keys "${key}")
  endforeach()
  foreach(run IN LISTS BOOK_PENDING_RUNS)
    string(REGEX REPLACE "/.*" "" key "${run}")
    if(NOT key IN_LIST keys)
      continue()
    endif()
    get_property(gpu GLOBAL PROPERTY "BOOK_R_${run}_GPU")
    if(NOT run IN_LIST runs)
      _book_gpus_error_at_key("${BOOK_PENDING_FILE}" "${text}" "${run}"
                       "pending run ${run} is not declared (no book_run of that name in "
                       "code/${key}/CMakeLists.txt)")
    elseif(NOT gpu)
      _book_gpus_error_at_key("${BOOK_PENDING_FILE}" "${text}" "${run}"
                       "pending run ${run} is a CPU run, which every build runs: only a GPU "
                       "run waits for a GPU")
    endif()
  endforeach()
endfunction()

_book_read_pending("${BOOK_PENDING_FILE}")
