# The book's programs and their runs.
#
#   book_program(<name> CHAPTER <key> SOURCES <files>... [LIBS <targets>...])
#       One program of a chapter. A program with a .cu source is a CUDA program:
#       compiled only where nvcc exists, run live only where a GPU exists.
#
#   book_run(<run> CHAPTER <key> PROGRAM <name> [ARGS <args>...] [TIMEOUT <s>]
#            [CHECKS <file>] [SASS_FUNCTION <name>] [NCU_KERNEL <regex>]
#            [NCU_METRICS <m>...] [NCU_ARGS <args>...] [NCU_LABELS <l>...]
#            [SANITIZE_ARGS <args>...])
#       One run of a program whose output the book shows. It writes the run
#       record <build>/records/<key>/<run>.json, which chapters cite as
#       <key>/<run>. CHECKS names the run's expectations (a JSON file).
#       CUDA runs come from recordings/<gpu>/<key>/<run>.json where no GPU runs.
set(BOOK_RECORDS_DIR "${CMAKE_BINARY_DIR}/records")
set(BOOK_RECORDINGS_DIR "${CMAKE_SOURCE_DIR}/recordings/${BOOK_GPU_SLUG}")
set(BOOK_COMMON_INCLUDE "${CMAKE_SOURCE_DIR}/code/common/include")
# Flags that shape the programs' code, hashed into every run record's inputs.
# Kept as project settings (not the compilers' full command lines, which hold
# machine paths) so that a recording's hash is the same on every machine.
set(BOOK_CXX_FLAGS_ID "c++20 ${CMAKE_BUILD_TYPE}")
set(BOOK_CUDA_FLAGS "-lineinfo")
string(REPLACE ";" "," _archs_id "${BOOK_CUDA_ARCHITECTURES}")
set(BOOK_CUDA_FLAGS_ID "c++20 ${CMAKE_BUILD_TYPE} arch=${_archs_id} ${BOOK_CUDA_FLAGS}")
set_property(GLOBAL PROPERTY BOOK_LEFT_OUT "")
# GPU runs time kernels: never two at once on one GPU (a Ninja pool of one).
set_property(GLOBAL APPEND PROPERTY JOB_POOLS book_gpu=1)
set_property(GLOBAL PROPERTY BOOK_RECORD_FILES "")

function(book_program name)
  cmake_parse_arguments(P "" "CHAPTER" "SOURCES;LIBS" ${ARGN})
  if(NOT P_CHAPTER OR NOT P_SOURCES)
    message(FATAL_ERROR "book_program(${name}): CHAPTER and SOURCES are required")
  endif()
  set(cuda OFF)
  set(abs_sources "")
  foreach(s IN LISTS P_SOURCES)
    get_filename_component(a "${s}" ABSOLUTE)
    list(APPEND abs_sources "${a}")
    if(s MATCHES "\\.cu$")
      set(cuda ON)
    endif()
  endforeach()
  set(id "${P_CHAPTER}/${name}")
  set_property(GLOBAL PROPERTY "BOOK_P_${id}_SOURCES" "${abs_sources}")
  set_property(GLOBAL PROPERTY "BOOK_P_${id}_CUDA" "${cuda}")
  set_property(GLOBAL PROPERTY "BOOK_P_${id}_DEFINED" ON)
  if(cuda AND NOT BOOK_HAVE_CUDA)
    set_property(GLOBAL APPEND PROPERTY BOOK_LEFT_OUT "${id}")
    return()
  endif()
  set(tgt "${P_CHAPTER}.${name}")
  add_executable(${tgt} ${P_SOURCES})
  set_target_properties(${tgt} PROPERTIES
    OUTPUT_NAME "${name}"
    RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin/${P_CHAPTER}")
  target_link_libraries(${tgt} PRIVATE book_report ${P_LIBS})
  if(cuda)
    target_link_libraries(${tgt} PRIVATE book_cuda)
    target_compile_options(${tgt} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:${BOOK_CUDA_FLAGS}>)
  endif()
  set_property(GLOBAL PROPERTY "BOOK_P_${id}_TARGET" "${tgt}")
endfunction()

# The runner arguments that describe a run's inputs (for the input hash).
function(_book_hash_args out id args)
  get_property(sources GLOBAL PROPERTY "BOOK_P_${id}_SOURCES")
  get_property(cuda GLOBAL PROPERTY "BOOK_P_${id}_CUDA")
  set(a --source-root "${CMAKE_SOURCE_DIR}" --cxx "${CMAKE_CXX_COMPILER}"
        --include-dir "${BOOK_COMMON_INCLUDE}")
  # The shared library is part of every program: its sources count as inputs
  # (listed in code/common/CMakeLists.txt, even where book_cuda is not built).
  get_property(common GLOBAL PROPERTY BOOK_COMMON_SOURCES)
  list(APPEND sources ${common})
  if(cuda)
    get_property(common_cuda GLOBAL PROPERTY BOOK_COMMON_CUDA_SOURCES)
    list(APPEND sources ${common_cuda})
  endif()
  foreach(s IN LISTS sources)
    list(APPEND a --source "${s}")
  endforeach()
  if(cuda)
    list(APPEND a --flags "${BOOK_CUDA_FLAGS_ID}" --gpu)
  else()
    list(APPEND a --flags "${BOOK_CXX_FLAGS_ID}")
  endif()
  foreach(x IN LISTS args)
    list(APPEND a "--arg=${x}")
  endforeach()
  set(${out} "${a}" PARENT_SCOPE)
endfunction()

function(book_run run)
  cmake_parse_arguments(R "" "CHAPTER;PROGRAM;TIMEOUT;CHECKS;SASS_FUNCTION;NCU_KERNEL"
                        "ARGS;NCU_METRICS;NCU_ARGS;NCU_LABELS;SANITIZE_ARGS" ${ARGN})
  set(id "${R_CHAPTER}/${R_PROGRAM}")
  get_property(defined GLOBAL PROPERTY "BOOK_P_${id}_DEFINED")
  if(NOT defined)
    message(FATAL_ERROR "book_run(${run}): no program ${id}; declare it with book_program first")
  endif()
  if(NOT R_TIMEOUT)
    set(R_TIMEOUT 120)
  endif()
  get_property(cuda GLOBAL PROPERTY "BOOK_P_${id}_CUDA")
  get_property(tgt GLOBAL PROPERTY "BOOK_P_${id}_TARGET")
  set(record "${BOOK_RECORDS_DIR}/${R_CHAPTER}/${run}.json")
  set(name "${R_CHAPTER}/${run}")
  _book_hash_args(hash_args "${id}" "${R_ARGS}")
  set(common --name "${name}" ${hash_args})
  set(deps bookrun)
  if(R_CHECKS)
    get_filename_component(R_CHECKS "${R_CHECKS}" ABSOLUTE)
    list(APPEND common --checks "${R_CHECKS}")
    list(APPEND deps "${R_CHECKS}")
  endif()
  set(prov --provenance "cxx=${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}")
  if(cuda AND BOOK_HAVE_CUDA)
    list(APPEND prov --provenance "nvcc=${CMAKE_CUDA_COMPILER_VERSION}")
  endif()

  set(live OFF)
  if(NOT cuda OR BOOK_GPU_LIVE)
    set(live ON)
  endif()
  set(recording "${BOOK_RECORDINGS_DIR}/${R_CHAPTER}/${run}.json")
  if(live)
    set(extra "")
    if(cuda AND R_SASS_FUNCTION AND BOOK_CUOBJDUMP)
      list(APPEND extra --cuobjdump "${BOOK_CUOBJDUMP}" --sass-function "${R_SASS_FUNCTION}")
    endif()
    if(cuda AND R_NCU_KERNEL AND BOOK_NCU)
      list(JOIN R_NCU_METRICS "," metrics)
      list(JOIN R_NCU_LABELS "," labels)
      list(APPEND extra --ncu "${BOOK_NCU}" --ncu-kernel "${R_NCU_KERNEL}"
                        --ncu-metrics "${metrics}" --ncu-labels "${labels}")
      foreach(x IN LISTS R_NCU_ARGS)
        list(APPEND extra "--ncu-arg=${x}")
      endforeach()
    endif()
    set(pool "")
    if(cuda)
      set(pool JOB_POOL book_gpu)
    endif()
    add_custom_command(
      OUTPUT "${record}"
      ${pool}
      COMMAND bookrun run ${common} ${prov} ${extra} --timeout ${R_TIMEOUT}
              --out "${record}" --depfile "${record}.d" -- $<TARGET_FILE:${tgt}> ${R_ARGS}
      DEPENDS ${tgt} ${deps}
      DEPFILE "${record}.d"
      COMMENT "Running ${name}"
      VERBATIM)
  else()
    add_custom_command(
      OUTPUT "${record}"
      COMMAND bookrun import ${common} --gpu-model "${BOOK_GPU_MODEL}"
              --recording "${recording}" --out "${record}" --depfile "${record}.d"
      DEPENDS ${deps}
      DEPFILE "${record}.d"
      COMMENT "Using the recording of ${name} (${BOOK_GPU_MODEL})"
      VERBATIM)
  endif()
  set_property(GLOBAL APPEND PROPERTY BOOK_RECORD_FILES "${record}")
  string(REPLACE "/" "." tname "${name}")
  # A target per run gives the record's rule a home, so the HTML step (in
  # another directory) can depend on the file itself.
  add_custom_target("record.${tname}" ALL DEPENDS "${record}")

  if(NOT BOOK_TESTS)
    return()
  endif()
  if(cuda)
    # The committed recording: present, complete, for the right GPU, fresh, and its checks hold.
    add_test(NAME "records.${tname}"
             COMMAND bookrun verify ${common} --gpu-model "${BOOK_GPU_MODEL}" --recording "${recording}")
    set_tests_properties("records.${tname}" PROPERTIES LABELS "records;book")
    # Live on a GPU: run again and check; skipped (77) without one.
    if(BOOK_HAVE_CUDA)
      add_test(NAME "gpu.${tname}"
               COMMAND bookrun run ${common} ${prov} --timeout ${R_TIMEOUT} --skip-without-gpu
                       --out "${CMAKE_CURRENT_BINARY_DIR}/gpu-test-records/${run}.json"
                       -- $<TARGET_FILE:${tgt}> ${R_ARGS})
    else()
      add_test(NAME "gpu.${tname}" COMMAND bookrun skip "no CUDA compiler: ${name} was not built")
    endif()
    set_tests_properties("gpu.${tname}" PROPERTIES LABELS "gpu" SKIP_RETURN_CODE 77
                         TIMEOUT ${R_TIMEOUT} RESOURCE_GROUPS "gpus:1")
    if(R_SANITIZE_ARGS)
      foreach(tool memcheck racecheck synccheck initcheck)
        if(BOOK_HAVE_CUDA AND BOOK_SANITIZER)
          add_test(NAME "sanitize.${tname}.${tool}"
                   COMMAND bookrun sanitize --sanitizer "${BOOK_SANITIZER}" --tool ${tool}
                           -- $<TARGET_FILE:${tgt}> ${R_SANITIZE_ARGS})
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

function(book_summary)
  get_property(left GLOBAL PROPERTY BOOK_LEFT_OUT)
  message(STATUS "Book: CUDA compiler: ${BOOK_HAVE_CUDA}; GPUs found: ${BOOK_GPU_COUNT}; GPU runs live: ${BOOK_GPU_LIVE}")
  if(left)
    string(REPLACE ";" ", " left "${left}")
    message(STATUS "Book: left out (no nvcc): ${left}; their outputs come from recordings/${BOOK_GPU_SLUG}")
    message(STATUS "Book: left out (no nvcc): the GPU, sanitizer and GPU-exercise tests, which report skipped")
  elseif(NOT BOOK_GPU_LIVE)
    message(STATUS "Book: GPU program outputs come from recordings/${BOOK_GPU_SLUG}")
  endif()
endfunction()
