# SPDX-License-Identifier: MIT
# The runs: book_run (its checks of the call, and the rule that writes its
# record: run live, or imported from the committed recording). The order of the
# GPU runs in the build (_book_order_gpu_runs: the measuring ones alone, after
# everything else): cmake/BookRunOrder.cmake. The tests of a run:
# cmake/BookRunTests.cmake.
# Tests: book.bad.cmake-ch93-no-program, -ch94-sanitizer, -ch95-env,
# -ch96-twice (tests/book/fixtures/cmake); records.*, gpu.*, run.* of every
# chapter; book.bad.record-* (tools/book record builds book_gpu_runs);
# book.bad.runner-cpu-*-varies, book.runner.cpu-output-varies-declared (VARIES).
#
#   book_run(<run> PROGRAM <name> [ARGS <args>...] [ENV <K=V>...] [TIMEOUT <s>]
#            [CHECKS <file>] [SASS_FUNCTIONS <kernel>...]
#            [NCU_KERNELS <regex>...] [NCU_LABELS <label>...] [NCU_METRICS <m>...]
#            [NCU_ARGS <args>...] [NCU_CACHE_CONTROL all|none] [SANITIZER <tool> SANITIZER_EXPECT errors|warnings|clean]
#            [SANITIZE_ARGS <args>...] [VARIES <regex>...] [EXACT <pattern>...]
#            [CHAPTER <key>])
#       One run of a program whose output the book shows. It writes the run
#       record <build>/records/<key>/<run>.json, which chapters cite as <run>
#       (or <key>/<run> from another chapter). CHECKS names the run's
#       expectations (a JSON file). ENV sets the program's environment.
#       SASS_FUNCTIONS records each kernel's SASS as the text sass:<kernel>;
#       NCU_KERNELS profiles every launch of a kernel matching one of the
#       regexes (in launch order, one ncu run; NCU_ARGS are the program's
#       arguments for it) and NCU_LABELS names those launches: the results
#       ncu:<label>:<metric>; a recording made for other metrics, labels,
#       kernels, NCU_ARGS or NCU_CACHE_CONTROL than those declared now is stale
#       (one made before the last three were recorded is not compared on them:
#       tools/runner/README.md). NCU_CACHE_CONTROL none profiles each launch with
#       the caches as the launches before it left them (ncu --cache-control
#       none); the default, all, flushes them before each profiled launch.
#       SANITIZER runs the program under compute-sanitizer
#       (memcheck, racecheck, synccheck or initcheck): the tool's report becomes
#       the text sanitizer:<tool>, its counts the results sanitizer_errors and
#       sanitizer_warnings, and SANITIZER_EXPECT says whether the run must find
#       errors (a chapter showing a wrong kernel), errors or warnings (racecheck
#       files a hazard between lanes of one warp as a warning), or neither. SANITIZE_ARGS adds the tests
#       sanitize.<key>.<run>.<tool> for all four tools, with these arguments.
#       CUDA runs come from recordings/<gpu>/<key>/<run>.json where no GPU runs.
#       A CPU run that measures nothing (no REPEATS, no SANITIZER) is made twice
#       and fails, naming the stream and line, where its two outputs differ;
#       VARIES names (ECMAScript regexes) the lines of its output that may.
#       EXACT names (shell patterns: `*`, `smem_*`) the results of a GPU run
#       that are properties of the GPU and the program, the same in every run
#       (a device's limits, an occupancy): the GPU CI (tools/book record) fails
#       where a figure the book quotes of one differs between the committed
#       recording and this GPU's run (tools/bookpy/records/drift.py), so that a
#       recording edited with its digest recomputed fails the next GPU run.
#       A run of a program that declares NEEDS_CC (book_program) is skipped,
#       with the reason, where a GPU runs live whose compute capability is below
#       it, or where BOOK_CUDA_ARCHITECTURES reaches it with no entry (the
#       program was not built): no record is made, its tests (records.*, gpu.*,
#       sanitize.*) report skipped and name the need, and the configure step
#       lists it. Where no GPU runs, its outputs come from the recordings as
#       every GPU run's do.
#       (SASS_FUNCTION and NCU_KERNEL, one value each, are read as before.)
set(BOOK_RECORDS_DIR "${CMAKE_BINARY_DIR}/records")
set(BOOK_RECORDINGS_ROOT "${CMAKE_SOURCE_DIR}/recordings" CACHE PATH
    "Where the committed GPU recordings are (recordings/<gpu>/<key>/<run>.json)")
set(BOOK_RECORDINGS_DIR "${BOOK_RECORDINGS_ROOT}/${BOOK_GPU_SLUG}")
set(BOOK_SCHEMA "${CMAKE_SOURCE_DIR}/book/record-schema.json")
# tools/book mine: the folder of the reader's GPU's records (build/mine/records/<slug>/,
# bookpy.records.mine), which the pages show beside the reference GPUs; empty: none.
set(BOOK_READER_RECORDS "" CACHE PATH
    "The reader's GPU's records and their mine.json, made by tools/book mine (empty: none)")
set_property(GLOBAL PROPERTY BOOK_RUNS "")
set_property(GLOBAL PROPERTY BOOK_RUNS_NEEDING "")
set_property(GLOBAL PROPERTY BOOK_RUNS_SKIPPED "")
# GPU runs time kernels: never two at once on one GPU (a Ninja pool of one).
set_property(GLOBAL APPEND PROPERTY JOB_POOLS book_gpu=1 book_gpu_shared=4)

function(book_run run)
  set(where "book_run(${run})")
  _book_parse(R "${where}" "${BOOK_RUN_ONE}" "${BOOK_RUN_MULTI}" PROGRAM ${ARGN})
  if(NOT run MATCHES "^[a-z0-9][a-z0-9_.-]*$")
    message(FATAL_ERROR "${where}: a run's name is lower case letters, digits, '-', '_' and '.'")
  endif()
  _book_chapter(key "${R_CHAPTER}" "${where}")
  set(id "${key}/${R_PROGRAM}")
  get_property(defined GLOBAL PROPERTY "BOOK_P_${id}_DEFINED")
  if(NOT defined)
    message(FATAL_ERROR "${where}: no program ${id}; declare it with book_program first")
  endif()
  set(name "${key}/${run}")
  get_property(again GLOBAL PROPERTY "BOOK_R_${name}_RECORD")
  if(again)
    message(FATAL_ERROR "${where}: chapter ${key} already has a run ${run}")
  endif()
  _book_run_defaults("${where}")
  get_property(cuda GLOBAL PROPERTY "BOOK_P_${id}_CUDA")
  get_property(tgt GLOBAL PROPERTY "BOOK_P_${id}_TARGET")
  _book_run_check_gpu_options(sanitizer_id "${where}" "${id}" "${cuda}")
  set(record "${BOOK_RECORDS_DIR}/${key}/${run}.json")
  _book_run_inputs("${where}" "${name}" "${id}" "${cuda}" "${sanitizer_id}")
  set(live OFF)
  if(NOT cuda OR BOOK_GPU_LIVE)
    set(live ON)
  endif()
  _book_run_skip_reason(skip "${name}" "${id}" "${cuda}" "${tgt}")
  set(recording "${BOOK_RECORDINGS_DIR}/${key}/${run}.json")
  set(timed OFF)
  set(pending "")
  set(made ON)
  if(skip)
    # Below the program's need: nothing to run, nothing to import (the
    # recordings are of other GPUs); its tests report skipped (_book_run_tests).
    set(live OFF)
    set(made OFF)
    set_property(GLOBAL APPEND PROPERTY BOOK_RUNS_SKIPPED "${name}")
  elseif(live)
    _book_run_live_rule(timed "${where}" "${name}" "${record}" "${cuda}" "${tgt}")
  else()
    book_pending_reason(pending "${name}" "${BOOK_GPU_MODEL}")
    _book_run_import_rule(made "${name}" "${BOOK_GPU_MODEL}" "${recording}" "${record}" "${pending}")
  endif()
  _book_run_register("${name}" "${record}" "${id}" "${cuda}" "${live}" "${timed}" "${made}")
  set_property(GLOBAL PROPERTY "BOOK_R_${name}_SKIPPED" "${skip}")
  set_property(GLOBAL PROPERTY "BOOK_R_${name}_CHECKS" "${R_CHECKS}")
  _book_run_tests("${name}" "${run}" "${tgt}" "${cuda}" "${live}" "${record}" "${recording}")
  if(cuda)
    _book_run_other_gpus("${name}" "${key}" "${run}")
  endif()
endfunction()

# Why run <name> of program <id> (target <tgt>, empty where not built) is
# skipped in this build, in <out>: its program's NEEDS_CC above the live GPU's
# compute capability (BOOK_GPU_CC, cmake/BookCuda.cmake), or above every entry of
# BOOK_CUDA_ARCHITECTURES where a GPU runs live; empty where it is not. Notes the
# run in BOOK_RUNS_NEEDING ("<name>=<cc>") for the configure step's list.
function(_book_run_skip_reason out name id cuda tgt)
  set(${out} "" PARENT_SCOPE)
  get_property(needs GLOBAL PROPERTY "BOOK_P_${id}_NEEDS_CC")
  if(NOT cuda OR NOT needs)
    return()
  endif()
  set_property(GLOBAL APPEND PROPERTY BOOK_RUNS_NEEDING "${name}=${needs}")
  book_cc_text(need "${needs}")
  if(BOOK_GPU_LIVE AND BOOK_GPU_CC AND BOOK_GPU_CC LESS needs)
    book_cc_text(have "${BOOK_GPU_CC}")
    string(CONCAT why "${name} needs compute capability ${need} (program ${id}, NEEDS_CC "
                      "${needs}); this GPU, the ${BOOK_GPU_MODEL}, has ${have}")
    set(${out} "${why}" PARENT_SCOPE)
  elseif(BOOK_GPU_LIVE AND NOT tgt)
    string(REPLACE ";" "," archs "${BOOK_CUDA_ARCHITECTURES}")
    string(CONCAT why "${name} needs compute capability ${need} (program ${id}, NEEDS_CC "
                      "${needs}); BOOK_CUDA_ARCHITECTURES (${archs}) has no entry that high, "
                      "so it was not built")
    set(${out} "${why}" PARENT_SCOPE)
  endif()
endfunction()

# The rule that takes a GPU run's committed recording on <gpu> into the build
# (bookrun import) as <record>; sets <made> to whether there is one. The lead
# GPU's recording must be there and fresh (stale, it is shown under a banner and
# its test fails; a release build refuses it), unless the run is <pending> on it;
# another reference GPU's may be stale (shown as that GPU's last, its checks not
# counted) or missing. Reads common and deps (_book_run_inputs).
function(_book_run_import_rule made name gpu recording record pending)
  _book_watch_recordings("${recording}")
  set(extra "")
  if(gpu STREQUAL BOOK_GPU_LEAD AND BOOK_RELEASE)
    if(pending)
      file(READ "${BOOK_PENDING_FILE}" text)
      _book_gpus_error_at_key("${BOOK_PENDING_FILE}" "${text}" "${name}"
                       "a release build (BOOK_RELEASE, tools/book build --release) shows only fresh "
                       "recordings of the lead GPU, the ${gpu}, but run ${name} waits for it: "
                       "${pending}. Record it on that GPU (tools/book record), or build without "
                       "--release")
    endif()
    list(APPEND extra --refuse-stale)
  elseif(NOT gpu STREQUAL BOOK_GPU_LEAD OR pending)
    if(NOT EXISTS "${recording}")
      set(${made} OFF PARENT_SCOPE)
      return()
    endif()
    list(APPEND extra --stale-ok)
  endif()
  add_custom_command(
    OUTPUT "${record}"
    COMMAND bookrun import ${common} --gpu-model "${gpu}" ${extra}
            --recording "${recording}" --out "${record}" --depfile "${record}.d"
    DEPENDS ${deps}
    DEPFILE "${record}.d"
    COMMENT "Using the recording of ${name} (${gpu})"
    VERBATIM)
  set(${made} ON PARENT_SCOPE)
endfunction()

# A recording that appears (or goes) configures the build again: whether a rule
# imports it is decided here (_book_run_import_rule).
function(_book_watch_recordings recording)
  get_filename_component(dir "${recording}" DIRECTORY)
  get_property(watched GLOBAL PROPERTY BOOK_WATCHED_RECORDINGS)
  if(NOT dir IN_LIST watched)
    set_property(GLOBAL APPEND PROPERTY BOOK_WATCHED_RECORDINGS "${dir}")
    file(GLOB _ CONFIGURE_DEPENDS "${dir}/*.json")
  endif()
endfunction()

# Every reference GPU (book/gpus.json) but the build's own (BOOK_GPU_MODEL): its
# recording of the run, imported beside the build's record into
# <build>/gpu-records/<slug>/<key>/<run>.json (target record.<key>.<run>.<slug>)
# for the pages, and its test records.<slug>.<key>.<run>: a fresh recording is
# verified as the lead's is; a missing or stale one, or one pending, is reported
# skipped, never passed. A GPU machine that builds no pages leaves them out (the
# GPU CI, tools/book record, checks the GPU it records).
function(_book_run_other_gpus name key run)
  set(gpus "${BOOK_GPU_MODEL}")
  book_gpu_slug(slug "${BOOK_GPU_MODEL}")
  get_property(record GLOBAL PROPERTY "BOOK_R_${name}_RECORD")
  get_property(made GLOBAL PROPERTY "BOOK_R_${name}_MADE")
  if(NOT made)
    set(record "")
  endif()
  set_property(GLOBAL PROPERTY "BOOK_R_${name}_GPU_RECORD_${slug}" "${record}")
  if(BOOK_GPU_LIVE AND NOT BOOK_DOCS)
    set_property(GLOBAL PROPERTY "BOOK_R_${name}_GPUS" "${gpus}")
    return()
  endif()
  string(REPLACE "/" "." tname "${name}")
  foreach(gpu IN LISTS BOOK_REFERENCE_GPUS)
    if(gpu STREQUAL BOOK_GPU_MODEL)
      continue()
    endif()
    list(APPEND gpus "${gpu}")
    book_gpu_slug(slug "${gpu}")
    set(recording "${BOOK_RECORDINGS_ROOT}/${slug}/${key}/${run}.json")
    set(record "${CMAKE_BINARY_DIR}/gpu-records/${slug}/${key}/${run}.json")
    book_pending_reason(pending "${name}" "${gpu}")
    _book_run_import_rule(made "${name}" "${gpu}" "${recording}" "${record}" "${pending}")
    if(made)
      add_custom_target("record.${tname}.${slug}" ALL DEPENDS "${record}")
    else()
      set(record "")
    endif()
    set_property(GLOBAL PROPERTY "BOOK_R_${name}_GPU_RECORD_${slug}" "${record}")
    set_property(GLOBAL PROPERTY "BOOK_R_${name}_GPU_PENDING_${slug}" "${pending}")
    if(BOOK_TESTS)
      set(why --stale-ok)
      if(pending)
        list(APPEND why --pending "${pending}")
      endif()
      add_test(NAME "records.${slug}.${tname}"
               COMMAND bookrun verify ${common} --gpu-model "${gpu}" ${why}
                       --recording "${recording}")
      set_tests_properties("records.${slug}.${tname}" PROPERTIES LABELS "records;book"
                           SKIP_RETURN_CODE 77)
    endif()
  endforeach()
  set_property(GLOBAL PROPERTY "BOOK_R_${name}_GPUS" "${gpus}")
endfunction()

# book_run's helpers, by concern. Each reads book_run's parsed arguments (R_*)
# from the caller's scope; what one sets for book_run it sets there (PARENT_SCOPE).

# The defaults and checks of the arguments every run has: R_TIMEOUT (120 s),
# R_REPEATS (1, at most 99; never with SANITIZER), SASS_FUNCTION and NCU_KERNEL
# added to their lists, ENV's NAME=VALUE.
function(_book_run_defaults where)
  if(NOT R_TIMEOUT)
    set(R_TIMEOUT 120)
  endif()
  if(NOT DEFINED R_REPEATS OR R_REPEATS STREQUAL "")
    set(R_REPEATS 1)
  endif()
  if(NOT R_REPEATS MATCHES "^[1-9][0-9]?$")
    message(FATAL_ERROR "${where}: REPEATS is how many times the run is made (1 to 99), "
                        "not '${R_REPEATS}'")
  endif()
  if(R_REPEATS GREATER 1 AND R_SANITIZER)
    message(FATAL_ERROR "${where}: REPEATS is for runs that measure; a run under "
                        "compute-sanitizer (SANITIZER) is made once")
  endif()
  list(APPEND R_SASS_FUNCTIONS ${R_SASS_FUNCTION})
  list(APPEND R_NCU_KERNELS ${R_NCU_KERNEL})
  foreach(kv IN LISTS R_ENV)
    if(NOT kv MATCHES "^[A-Za-z_][A-Za-z0-9_]*=")
      message(FATAL_ERROR "${where}: ENV takes NAME=VALUE, not '${kv}'")
    endif()
  endforeach()
  set(R_TIMEOUT "${R_TIMEOUT}" PARENT_SCOPE)
  set(R_REPEATS "${R_REPEATS}" PARENT_SCOPE)
  set(R_SASS_FUNCTIONS "${R_SASS_FUNCTIONS}" PARENT_SCOPE)
  set(R_NCU_KERNELS "${R_NCU_KERNELS}" PARENT_SCOPE)
endfunction()

# The checks of the CUDA programs' options (SASS_FUNCTIONS, NCU_*, SANITIZER*);
# sets <out> to the runner's arguments that name the sanitizer (part of the
# input hash), or to nothing.
function(_book_run_check_gpu_options out where id cuda)
  if(NOT cuda AND (R_SASS_FUNCTIONS OR R_NCU_KERNELS OR R_SANITIZER OR R_SANITIZE_ARGS))
    message(FATAL_ERROR "${where}: SASS_FUNCTIONS, NCU_KERNELS, SANITIZER and SANITIZE_ARGS "
                        "are for CUDA programs; ${id} has no .cu source and links no book "
                        "library with one")
  endif()
  if(R_NCU_LABELS AND NOT R_NCU_KERNELS)
    message(FATAL_ERROR "${where}: NCU_LABELS names the launches that NCU_KERNELS profiles; "
                        "give NCU_KERNELS")
  endif()
  if(R_NCU_KERNELS AND NOT R_NCU_METRICS)
    message(FATAL_ERROR "${where}: NCU_KERNELS needs NCU_METRICS (the metrics to record)")
  endif()
  if((R_NCU_METRICS OR R_NCU_ARGS) AND NOT R_NCU_KERNELS)
    message(FATAL_ERROR "${where}: NCU_METRICS are recorded from the launches NCU_KERNELS "
                        "profiles (NCU_ARGS are the program's arguments then); give NCU_KERNELS")
  endif()
  if(DEFINED R_NCU_CACHE_CONTROL)
    if(NOT R_NCU_KERNELS)
      message(FATAL_ERROR "${where}: NCU_CACHE_CONTROL says how NCU_KERNELS profiles; give NCU_KERNELS")
    endif()
    if(NOT R_NCU_CACHE_CONTROL MATCHES "^(all|none)$")
      message(FATAL_ERROR "${where}: NCU_CACHE_CONTROL is all (flush the caches before each "
                          "profiled launch, ncu's default) or none, not '${R_NCU_CACHE_CONTROL}'")
    endif()
  endif()
  set(sanitizer_id "")
  if(R_SANITIZER OR R_SANITIZER_EXPECT)
    if(NOT R_SANITIZER MATCHES "^(memcheck|racecheck|synccheck|initcheck)$")
      message(FATAL_ERROR "${where}: SANITIZER is memcheck, racecheck, synccheck or initcheck, "
                          "not '${R_SANITIZER}'")
    endif()
    if(NOT R_SANITIZER_EXPECT MATCHES "^(errors|warnings|clean)$")
      message(FATAL_ERROR "${where}: SANITIZER ${R_SANITIZER} needs SANITIZER_EXPECT errors "
                          "(the run must find at least one error), warnings (at least one error "
                          "or warning) or clean (neither)")
    endif()
    set(sanitizer_id --sanitizer-tool "${R_SANITIZER}" --sanitizer-expect "${R_SANITIZER_EXPECT}")
  endif()
  set(${out} "${sanitizer_id}" PARENT_SCOPE)
endfunction()

# What the record's rule reads and says about itself; sets in book_run's scope:
# common (the runner's arguments of the run and its input hash, CHECKS'
# file made absolute), deps (the rule's file dependencies), prov (the
# compilers, for the record's provenance) and tool_args (nvidia-smi,
# compute-sanitizer).
function(_book_run_inputs where name id cuda sanitizer_id)
  _book_hash_args(hash_args "${id}" "${R_ARGS}" "${R_ENV}")
  set(common --name "${name}" ${hash_args} ${sanitizer_id} --repeats ${R_REPEATS})
  # What Nsight Compute records and how, declared once: what a live run profiles
  # (with --ncu, _book_run_live_rule), and what a recording must have been made
  # with: one made for other metrics, launches, kernels, arguments or cache
  # control is stale (bookrun import and verify; compared, not hashed).
  if(R_NCU_METRICS)
    list(JOIN R_NCU_METRICS "," metrics)
    list(APPEND common --ncu-metrics "${metrics}")
    if(R_NCU_LABELS)
      list(JOIN R_NCU_LABELS "," labels)
      list(APPEND common --ncu-labels "${labels}")
    endif()
    foreach(k IN LISTS R_NCU_KERNELS)
      list(APPEND common --ncu-kernel "${k}")
    endforeach()
    foreach(x IN LISTS R_NCU_ARGS)
      list(APPEND common "--ncu-arg=${x}")
    endforeach()
    if(R_NCU_CACHE_CONTROL)
      list(APPEND common --ncu-cache-control "${R_NCU_CACHE_CONTROL}")
    endif()
  endif()
  foreach(gpu IN LISTS BOOK_REFERENCE_GPUS)
    list(APPEND common --reference-gpu "${gpu}")
  endforeach()
  set(deps bookrun "${BOOK_SCHEMA}")
  if(R_CHECKS)
    get_filename_component(R_CHECKS "${R_CHECKS}" ABSOLUTE)
    if(NOT EXISTS "${R_CHECKS}")
      message(FATAL_ERROR "${where}: CHECKS file ${R_CHECKS} does not exist")
    endif()
    list(APPEND common --checks "${R_CHECKS}")
    list(APPEND deps "${R_CHECKS}")
  endif()
  set(prov --provenance "cxx=${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}")
  if(cuda AND BOOK_HAVE_CUDA)
    list(APPEND prov --provenance "nvcc=${CMAKE_CUDA_COMPILER_VERSION}")
  endif()
  set(tool_args "")
  if(cuda AND BOOK_NVIDIA_SMI)
    list(APPEND tool_args --nvidia-smi "${BOOK_NVIDIA_SMI}")
  endif()
  if(R_SANITIZER AND BOOK_HAVE_CUDA)
    if(BOOK_SANITIZER)
      list(APPEND tool_args --sanitizer "${BOOK_SANITIZER}")
    elseif(BOOK_GPU_LIVE)
      message(FATAL_ERROR "${where}: SANITIZER needs compute-sanitizer, which is not in the "
                          "CUDA Toolkit found (${CMAKE_CUDA_COMPILER})")
    endif()
  endif()
  set(R_CHECKS "${R_CHECKS}" PARENT_SCOPE)
  set(common "${common}" PARENT_SCOPE)
  set(deps "${deps}" PARENT_SCOPE)
  set(prov "${prov}" PARENT_SCOPE)
  set(tool_args "${tool_args}" PARENT_SCOPE)
endfunction()

# The rule of a run made here (a CPU run, or a GPU run where a GPU is): bookrun
# runs the program; VARIES, SASS_FUNCTIONS, NCU_* become the runner's
# arguments. Reads common, deps, prov and tool_args (_book_run_inputs); sets
# <timed> to whether the run measures on the GPU.
function(_book_run_live_rule timed_out where name record cuda tgt)
  set(extra "")
  foreach(v IN LISTS R_VARIES)
    list(APPEND extra "--varies=${v}")
  endforeach()
  if(cuda AND R_SASS_FUNCTIONS)
    if(NOT BOOK_CUOBJDUMP)
      message(FATAL_ERROR "${where}: SASS_FUNCTIONS needs cuobjdump, not found beside nvcc")
    endif()
    list(APPEND extra --cuobjdump "${BOOK_CUOBJDUMP}")
    foreach(f IN LISTS R_SASS_FUNCTIONS)
      list(APPEND extra --sass-function "${f}")
    endforeach()
  endif()
  if(cuda AND R_NCU_KERNELS)
    if(NOT BOOK_NCU)
      message(FATAL_ERROR "${where}: NCU_KERNELS needs Nsight Compute (ncu), not found")
    endif()
    # (What it profiles, and how, is in common: the run profiles what it declares.)
    list(APPEND extra --ncu "${BOOK_NCU}")
  endif()
  # A GPU run that measures (REPEATS, or profiled by Nsight Compute) has the
  # GPU and the host to itself (the pool book_gpu, of one); the others (checks
  # of correctness, sanitizer reports, SASS) share it, four at a time, once
  # the measuring runs are done. bookrun refuses a run that reports a time
  # without declaring REPEATS.
  set(timed OFF)
  if(cuda AND (R_REPEATS GREATER 1 OR R_NCU_KERNELS))
    set(timed ON)
  endif()
  set(pool "")
  if(timed)
    set(pool JOB_POOL book_gpu)
  elseif(cuda)
    set(pool JOB_POOL book_gpu_shared)
  endif()
  add_custom_command(
    OUTPUT "${record}"
    ${pool}
    COMMAND bookrun run ${common} ${prov} ${tool_args} ${extra} --timeout ${R_TIMEOUT}
            --out "${record}" --depfile "${record}.d" -- $<TARGET_FILE:${tgt}> ${R_ARGS}
    DEPENDS ${tgt} ${deps}
    DEPFILE "${record}.d"
    COMMENT "Running ${name}"
    VERBATIM)
  set(${timed_out} "${timed}" PARENT_SCOPE)
endfunction()

# The run in the build's lists (BOOK_RUNS, BOOK_R_<name>_*, read by the manifest
# and the tests), its target record.<key>.<run>, and its place in the order of
# the GPU runs.
function(_book_run_register name record id cuda live timed made)
  set_property(GLOBAL APPEND PROPERTY BOOK_RUNS "${name}")
  set_property(GLOBAL PROPERTY "BOOK_R_${name}_RECORD" "${record}")
  set_property(GLOBAL PROPERTY "BOOK_R_${name}_MADE" "${made}")
  set_property(GLOBAL PROPERTY "BOOK_R_${name}_PROGRAM" "${id}")
  set_property(GLOBAL PROPERTY "BOOK_R_${name}_GPU" "${cuda}")
  set_property(GLOBAL PROPERTY "BOOK_R_${name}_LIVE" "${live}")
  if(R_EXACT AND NOT cuda)
    message(FATAL_ERROR "book_run(${name}): EXACT names results of a GPU run, which the GPU CI "
                        "compares with its recording; a CPU run is made again by every build")
  endif()
  set_property(GLOBAL PROPERTY "BOOK_R_${name}_EXACT" "${R_EXACT}")
  string(REPLACE "/" "." tname "${name}")
  # A target per run gives the record's rule a home, so the HTML step (in
  # another directory) can depend on the file itself. A run pending on the
  # build's GPU that was never recorded there has no record.
  if(made)
    add_custom_target("record.${tname}" ALL DEPENDS "${record}")
  else()
    add_custom_target("record.${tname}")
  endif()
  if(live AND timed)
    # A GPU run times kernels: _book_order_gpu_runs makes it wait until everything
    # else has been compiled and run, so that nothing competes with it for the host.
    set_property(GLOBAL APPEND PROPERTY BOOK_GPU_RECORD_TARGETS "record.${tname}")
  elseif(live AND cuda)
    # ... and the GPU runs that time nothing wait for those that do.
    set_property(GLOBAL APPEND PROPERTY BOOK_GPU_SHARED_TARGETS "record.${tname}")
  endif()
endfunction()
