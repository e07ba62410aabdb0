# SPDX-License-Identifier: MIT
# What the configure step hands to the HTML step: the build manifest
# (book-manifest.json: the source root, the records, each run's record and
# program, the chapters of this build, the compiled sources, the exercises)
# and the check-yourself tags (cy-tags.json, from every Catch2 program
# registered with book_register_catch2_test).
# Tests: book.sphinx.pytest and book.whole-book read the manifest;
# book.cy-tags and book.cy-tags.real-catch2 the tags; book.new-chapter both.
set(BOOK_MANIFEST "${CMAKE_BINARY_DIR}/book-manifest.json")
set(BOOK_CY_TAGS "${CMAKE_BINARY_DIR}/cy-tags.json")
set_property(GLOBAL PROPERTY BOOK_CATCH2_TESTS "")

# Every Catch2 program registered as a CTest test. A chapter's check-yourself
# program (<key>.check-yourself) is listed by the build for the check-yourself
# tags (cy-tags.json), so it is built with the book; the others are test programs,
# built before the tests run, and listed then by the test book.catch-tags: a
# check-yourself tag there, or a tag that lets a failure pass, fails it (and the
# configure step already refuses such a tag in a source: book_catch_test).
set_property(GLOBAL PROPERTY BOOK_CATCH2_OTHER_TESTS "")
function(book_register_catch2_test test target)
  if(test MATCHES "\\.check-yourself$")
    set_property(GLOBAL APPEND PROPERTY BOOK_CATCH2_TESTS "${test}")
  else()
    set_property(GLOBAL APPEND PROPERTY BOOK_CATCH2_OTHER_TESTS "${test}")
  endif()
  set_property(GLOBAL PROPERTY "BOOK_CT_${test}_TARGET" "${target}")
endfunction()

# The manifest's "gpus": the GPU this build's records are of ("model": the live
# GPU where GPU programs run, else the lead), whether they run "live", the
# "lead" GPU, "release" (BOOK_RELEASE), and the "reference" GPUs of
# book/gpus.json, each {"name", "slug", "short"}.
function(_book_manifest_gpus out)
  set(list "[]")
  set(i 0)
  foreach(gpu IN LISTS BOOK_REFERENCE_GPUS)
    book_gpu_slug(slug "${gpu}")
    _book_json_string(n "${gpu}")
    _book_json_string(s "${slug}")
    _book_json_string(t "${BOOK_GPU_SHORT_${slug}}")
    string(JSON list SET "${list}" ${i} "{\"name\": ${n}, \"slug\": ${s}, \"short\": ${t}}")
    math(EXPR i "${i} + 1")
  endforeach()
  _book_json_string(model "${BOOK_GPU_MODEL}")
  _book_json_string(lead "${BOOK_GPU_LEAD}")
  _book_json_bool(live "${BOOK_GPU_LIVE}")
  _book_json_bool(release "${BOOK_RELEASE}")
  set(${out} "{\"model\": ${model}, \"live\": ${live}, \"lead\": ${lead}, \"release\": ${release}, \"reference\": ${list}}"
      PARENT_SCOPE)
endfunction()

# A GPU run's record on each GPU the build shows, in <out>: {"<GPU name>":
# {"slug", "record": <path, or null where there is none>, "pending": <why the run
# waits for that GPU (recordings/pending.json), or null>}}; the build's own GPU
# first. Whether a record is fresh or stale, the record says ("stale", and the
# commit it was made at). A CPU run's: null.
function(_book_manifest_run_gpus out name)
  get_property(gpus GLOBAL PROPERTY "BOOK_R_${name}_GPUS")
  get_property(cuda GLOBAL PROPERTY "BOOK_R_${name}_GPU")
  if(NOT cuda)
    set(${out} null PARENT_SCOPE)
    return()
  endif()
  set(per "{}")
  foreach(gpu IN LISTS gpus)
    book_gpu_slug(slug "${gpu}")
    get_property(rec GLOBAL PROPERTY "BOOK_R_${name}_GPU_RECORD_${slug}")
    _book_json_string_or_null(r "${rec}")
    if(gpu STREQUAL BOOK_GPU_MODEL AND NOT BOOK_GPU_LIVE)
      book_pending_reason(pending "${name}" "${gpu}")
    else()
      get_property(pending GLOBAL PROPERTY "BOOK_R_${name}_GPU_PENDING_${slug}")
    endif()
    _book_json_string_or_null(w "${pending}")
    _book_json_string(s "${slug}")
    _book_json_string(n "${gpu}")
    string(JSON per SET "${per}" "${gpu}" "{\"slug\": ${s}, \"record\": ${r}, \"pending\": ${w}}")
  endforeach()
  set(${out} "${per}" PARENT_SCOPE)
endfunction()

# One run's entry of the manifest, in <out>: {"record", "program", "gpu", "live",
# "exact", "gpus" (_book_manifest_run_gpus), "checks" (its checks file, or null),
# "needs_cc" (the compute capability its program declares it needs, "9.0", or
# null: book_program's NEEDS_CC), "skipped" (why it was skipped on this build's
# GPU, or null)}.
function(_book_manifest_run out name)
  get_property(record GLOBAL PROPERTY "BOOK_R_${name}_RECORD")
  get_property(program GLOBAL PROPERTY "BOOK_R_${name}_PROGRAM")
  get_property(gpu GLOBAL PROPERTY "BOOK_R_${name}_GPU")
  get_property(live GLOBAL PROPERTY "BOOK_R_${name}_LIVE")
  _book_json_string(r "${record}")
  _book_json_string(p "${program}")
  _book_json_bool(g "${gpu}")
  _book_json_bool(l "${live}")
  get_property(exact GLOBAL PROPERTY "BOOK_R_${name}_EXACT")
  _book_json_string_array(x ${exact})
  _book_manifest_run_gpus(per "${name}")
  get_property(checks GLOBAL PROPERTY "BOOK_R_${name}_CHECKS")
  _book_json_string_or_null(c "${checks}")
  get_property(needs GLOBAL PROPERTY "BOOK_P_${program}_NEEDS_CC")
  set(n null)
  if(needs)
    book_cc_text(n "${needs}")
    _book_json_string(n "${n}")
  endif()
  get_property(skipped GLOBAL PROPERTY "BOOK_R_${name}_SKIPPED")
  _book_json_string_or_null(k "${skipped}")
  set(${out}
      "{\"record\": ${r}, \"program\": ${p}, \"gpu\": ${g}, \"live\": ${l}, \"exact\": ${x}, \"gpus\": ${per}, \"checks\": ${c}, \"needs_cc\": ${n}, \"skipped\": ${k}}"
      PARENT_SCOPE)
endfunction()

# Sets <key> of the manifest's JSON (j, in the caller's scope) to <value> as a
# JSON string where <condition> holds (ON, or a setting's name) and <value> is
# not empty; to null otherwise.
macro(_book_manifest_string key value condition)
  set(_book_v null)
  if(${condition} AND NOT "${value}" STREQUAL "")
    _book_json_string(_book_v "${value}")
  endif()
  string(JSON j SET "${j}" ${key} "${_book_v}")
endmacro()

# book-manifest.json: what the build declares, for the book's extension.
function(_book_write_manifest)
  set(j "{}")
  _book_manifest_string(source_root "${CMAKE_SOURCE_DIR}" ON)
  _book_manifest_string(records_dir "${BOOK_RECORDS_DIR}" ON)
  _book_manifest_string(diagrams_dir "${CMAKE_BINARY_DIR}/diagrams" ON)
  _book_manifest_string(edition "${BOOK_EDITION}" ON)
  set(runs "{}")
  get_property(names GLOBAL PROPERTY BOOK_RUNS)
  foreach(name IN LISTS names)
    _book_manifest_run(entry "${name}")
    string(JSON runs SET "${runs}" "${name}" "${entry}")
  endforeach()
  string(JSON j SET "${j}" runs "${runs}")
  _book_manifest_gpus(gpus)
  string(JSON j SET "${j}" gpus "${gpus}")
  book_chapter_keys(keys)
  _book_json_string_array(list ${keys})
  string(JSON j SET "${j}" chapters "${list}")
  # The sources every declared program and library compiles (a chapter lists only those,
  # and the headers its runs' records name as inputs).
  get_property(compiled GLOBAL PROPERTY BOOK_COMPILED_SOURCES)
  set(rels "")
  foreach(f IN LISTS compiled)
    file(RELATIVE_PATH rel "${CMAKE_SOURCE_DIR}" "${f}")
    if(NOT rel MATCHES "^\\.\\./")
      list(APPEND rels "${rel}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES rels)
  list(SORT rels)
  _book_json_string_array(list ${rels})
  string(JSON j SET "${j}" compiled "${list}")
  _book_manifest_string(cy_tags "${BOOK_CY_TAGS}" BOOK_TESTS)
  get_property(exercises GLOBAL PROPERTY BOOK_EXERCISES_MANIFEST)
  _book_manifest_string(exercises "${exercises}" ON)
  # The lines of code/, exercises/ and solutions/ a compiler kept (the HTML
  # step's kept-lines.json, cmake/BookSite.cmake), which a listing may show.
  _book_manifest_string(kept_lines "${CMAKE_BINARY_DIR}/kept-lines.json" BOOK_DOCS)
  # The reader's own GPU (tools/book mine: BOOK_READER_RECORDS, its records and their
  # index mine.json, kept out of recordings/), shown beside the reference GPUs.
  _book_manifest_string(reader "${BOOK_READER_RECORDS}" ON)
  # Written only when it changes, so that the HTML step re-runs only then.
  file(GENERATE OUTPUT "${BOOK_MANIFEST}" CONTENT "${j}\n")
endfunction()

# gpu-states.json: each GPU run on each GPU the build shows, fresh, stale,
# pending or not recorded (bookpy.records.gpustates, which prints it per GPU in
# the build's output: the build summary of what is stale); a release build
# (BOOK_RELEASE) fails there when a run of the lead GPU is not fresh.
function(_book_gpu_states_rule)
  set(records "")
  get_property(names GLOBAL PROPERTY BOOK_RUNS)
  foreach(name IN LISTS names)
    get_property(gpus GLOBAL PROPERTY "BOOK_R_${name}_GPUS")
    foreach(gpu IN LISTS gpus)
      book_gpu_slug(slug "${gpu}")
      get_property(rec GLOBAL PROPERTY "BOOK_R_${name}_GPU_RECORD_${slug}")
      list(APPEND records ${rec})
    endforeach()
  endforeach()
  if(NOT records)
    return()
  endif()
  set(release "")
  if(BOOK_RELEASE)
    set(release --release)
  endif()
  set(out "${CMAKE_BINARY_DIR}/gpu-states.json")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${BOOK_PY} -m bookpy.records.gpustates --manifest "${BOOK_MANIFEST}" --out "${out}"
            ${release}
    DEPENDS "${BOOK_MANIFEST}" ${records} "${CMAKE_SOURCE_DIR}/tools/bookpy/records/gpustates.py"
    COMMENT "The GPU runs on each GPU: fresh, stale, pending or not recorded"
    VERBATIM)
  add_custom_target(book_gpu_states ALL DEPENDS "${out}")
endfunction()

# cy-tags.json: asks every registered, built Catch2 program for its tests and
# tags (tools/bookpy/build/cy_tags.py). It is rewritten only when the tags change, so a
# test edit relinks and re-lists, and the HTML step runs again only if a tag moved.
function(_book_cy_tags_rule)
  if(NOT BOOK_TESTS)
    return()
  endif()
  get_property(tests GLOBAL PROPERTY BOOK_CATCH2_TESTS)
  set(args "")
  set(targets "")
  foreach(t IN LISTS tests)
    get_property(tgt GLOBAL PROPERTY "BOOK_CT_${t}_TARGET")
    if(TARGET "${tgt}")
      list(APPEND args "${t}=$<TARGET_FILE:${tgt}>")
      list(APPEND targets "${tgt}")
    endif()
  endforeach()
  add_custom_command(
    OUTPUT "${BOOK_CY_TAGS}.stamp"
    BYPRODUCTS "${BOOK_CY_TAGS}"
    COMMAND ${BOOK_PY} -m bookpy.build.cy_tags --out "${BOOK_CY_TAGS}"
            --stamp "${BOOK_CY_TAGS}.stamp" -- ${args}
    DEPENDS ${targets} "${CMAKE_SOURCE_DIR}/tools/bookpy/build/cy_tags.py"
    COMMENT "Listing the check-yourself tags of ${CMAKE_BINARY_DIR}/cy-tags.json"
    VERBATIM)
  add_custom_target(book_cy_tags ALL DEPENDS "${BOOK_CY_TAGS}.stamp")

  get_property(others GLOBAL PROPERTY BOOK_CATCH2_OTHER_TESTS)
  set(args "")
  foreach(t IN LISTS others)
    get_property(tgt GLOBAL PROPERTY "BOOK_CT_${t}_TARGET")
    if(TARGET "${tgt}")
      list(APPEND args "${t}=$<TARGET_FILE:${tgt}>")
    endif()
  endforeach()
  if(args)
    add_test(NAME book.catch-tags
             COMMAND ${BOOK_PY} -m bookpy.build.cy_tags --none -- ${args})
    set_tests_properties(book.catch-tags PROPERTIES LABELS "unit;book" TIMEOUT 300)
  endif()
endfunction()
