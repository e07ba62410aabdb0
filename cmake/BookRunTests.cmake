# SPDX-License-Identifier: MIT
# The tests book_run adds for each run (where BOOK_TESTS is on): for a GPU run,
# records.<key>.<run> (the committed recording: present, for this GPU, fresh,
# its checks holding; skipped while the run is pending on this GPU),
# gpu.<key>.<run> (the build's live record, checked; skipped where it came
# from the recording) and, with SANITIZE_ARGS,
# sanitize.<key>.<run>.<tool>; for a CPU run, run.<key>.<run> (run again, its
# checks again).
# Tests: `ctest -L records`, `ctest -L gpu`, the run.* tests; their names are
# what tools/book and CI select by.

# A run below its program's need here (book_program's NEEDS_CC,
# _book_run_skip_reason): each of its tests (records, gpu, and sanitize with
# SANITIZE_ARGS) reports skipped with the reason <skip>.
function(_book_run_skipped_tests tname skip)
  set(tests "records.${tname}" "gpu.${tname}")
  if(R_SANITIZE_ARGS)
    foreach(tool memcheck racecheck synccheck initcheck)
      list(APPEND tests "sanitize.${tname}.${tool}")
    endforeach()
  endif()
  foreach(t IN LISTS tests)
    add_test(NAME "${t}" COMMAND bookrun skip "${skip}")
    set(label "sanitize;gpu")
    if(t MATCHES "^records\\.")
      set(label "records;book")
    elseif(t MATCHES "^gpu\\.")
      set(label "gpu")
    endif()
    set_tests_properties("${t}" PROPERTIES SKIP_RETURN_CODE 77 LABELS "${label}")
  endforeach()
endfunction()

# Called by book_run (cmake/BookRuns.cmake), whose scope it reads as book_run's
# other helpers do: the parsed R_TIMEOUT, R_ARGS (the program's arguments),
# R_ENV and R_SANITIZE_ARGS, common and prov (_book_run_inputs: the runner's
# arguments of the run, its provenance), pending (why the run waits for the
# build's GPU, recordings/pending.json, or nothing) and skip (why the run is
# skipped on this build's GPU, _book_run_skip_reason, or nothing).
function(_book_run_tests name run tgt cuda live record recording)
  if(NOT BOOK_TESTS)
    return()
  endif()
  string(REPLACE "/" "." tname "${name}")
  if(cuda AND skip)
    _book_run_skipped_tests("${tname}" "${skip}")
    return()
  endif()
  if(cuda)
    # The committed recording: present, complete, for the right GPU, fresh, and its
    # checks hold. A run pending on this GPU (recordings/pending.json) is reported
    # skipped, with its reason, while its recording is missing or stale; a fresh
    # one still declared pending fails. (The other reference GPUs' recordings:
    # records.<slug>.<key>.<run>, cmake/BookRuns.cmake.)
    set(waits "")
    if(pending)
      set(waits --pending "${pending}")
    endif()
    add_test(NAME "records.${tname}"
             COMMAND bookrun verify ${common} --gpu-model "${BOOK_GPU_MODEL}" ${waits}
                     --recording "${recording}")
    set_tests_properties("records.${tname}" PROPERTIES LABELS "records;book" SKIP_RETURN_CODE 77)
    # Where the build ran it live: the build's own record, checked (unedited, of
    # the sources as they are, every check holding in every repeat), never a second
    # run, which would be timed again beside other tests and thrown away.
    # Skipped (77) where the build took the recording instead.
    if(live)
      add_test(NAME "gpu.${tname}"
               COMMAND bookrun check ${common} --record "${record}")
    elseif(BOOK_HAVE_CUDA)
      add_test(NAME "gpu.${tname}" COMMAND bookrun skip "no GPU: ${name} came from its recording")
    else()
      add_test(NAME "gpu.${tname}" COMMAND bookrun skip "no CUDA compiler: ${name} was not built")
    endif()
    set_tests_properties("gpu.${tname}" PROPERTIES LABELS "gpu" SKIP_RETURN_CODE 77
                         TIMEOUT ${R_TIMEOUT})
    if(R_SANITIZE_ARGS)
      foreach(tool memcheck racecheck synccheck initcheck)
        if(BOOK_HAVE_CUDA AND BOOK_SANITIZER)
          set(sanitize_env "")
          foreach(x IN LISTS R_ENV)
            list(APPEND sanitize_env "--env=${x}")
          endforeach()
          add_test(NAME "sanitize.${tname}.${tool}"
                   COMMAND bookrun sanitize --sanitizer "${BOOK_SANITIZER}" --tool ${tool}
                           ${sanitize_env} -- $<TARGET_FILE:${tgt}> ${R_SANITIZE_ARGS})
        else()
          add_test(NAME "sanitize.${tname}.${tool}"
                   COMMAND bookrun skip "no compute-sanitizer: ${name} was not sanitized")
        endif()
        set_tests_properties("sanitize.${tname}.${tool}" PROPERTIES LABELS "sanitize;gpu"
                             SKIP_RETURN_CODE 77 TIMEOUT 600 RESOURCE_GROUPS "gpus:1")
      endforeach()
    endif()
  else()
    # CPU runs: run again and re-check the expectations.
    add_test(NAME "run.${tname}"
             COMMAND bookrun run ${common} ${prov} --timeout ${R_TIMEOUT}
                     --out "${CMAKE_CURRENT_BINARY_DIR}/test-records/${run}.json"
                     -- $<TARGET_FILE:${tgt}> ${R_ARGS})
    set_tests_properties("run.${tname}" PROPERTIES LABELS "book")
  endif()
endfunction()
