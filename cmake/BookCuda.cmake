# SPDX-License-Identifier: MIT
# CUDA is optional. With nvcc (enabled by cmake/BookLanguages.cmake, which
# CMakeLists.txt includes first), CUDA programs compile for
# BOOK_CUDA_ARCHITECTURES (real SASS for each, PTX for the last). Without it,
# the book still builds from the committed recordings and says what it left out.

# CMake's CUDA_ARCHITECTURES for a list of compute capabilities, in <out>: SASS
# for each, PTX for the last (what the driver compiles for a newer GPU).
function(_book_cuda_architectures out archs)
  set(list "")
  foreach(a IN LISTS archs)
    list(APPEND list "${a}-real")
  endforeach()
  list(GET archs -1 last)
  list(APPEND list "${last}-virtual")
  set(${out} "${list}" PARENT_SCOPE)
endfunction()

if(BOOK_HAVE_CUDA)
  # One setting for the whole book: SASS for every listed architecture, PTX for the last.
  # `native` is this machine's GPU, asked of nvidia-smi here (as a number, so that
  # the runs' input hash names it, and book_program's NEEDS_CC can compare).
  include(BookGpus)
  if(BOOK_CUDA_ARCHITECTURES STREQUAL "native")
    find_program(BOOK_NVIDIA_SMI nvidia-smi)
    set(_native "")
    if(BOOK_NVIDIA_SMI)
      _book_live_gpu_cc(_native "${BOOK_NVIDIA_SMI}")
    endif()
    if(NOT _native)
      message(FATAL_ERROR "BOOK_CUDA_ARCHITECTURES=native builds for this machine's GPU, but "
                          "nvidia-smi (${BOOK_NVIDIA_SMI}) named no compute capability: give the "
                          "architectures as a list instead (for example 75, or '75;90')")
    endif()
    message(STATUS "Book: BOOK_CUDA_ARCHITECTURES=native: this machine's GPU, compute capability ${_native}")
    set(BOOK_CUDA_ARCHITECTURES "${_native}")
  endif()
  foreach(a IN LISTS BOOK_CUDA_ARCHITECTURES)
    if(NOT a MATCHES "^[0-9][0-9][0-9]?[af]?$")
      message(FATAL_ERROR "BOOK_CUDA_ARCHITECTURES='${BOOK_CUDA_ARCHITECTURES}': each entry is a "
                          "compute capability without the dot (75, 86, 90, 90a), separated by ';', "
                          "or the whole setting is native; not '${a}'")
    endif()
  endforeach()
  _book_cuda_architectures(CMAKE_CUDA_ARCHITECTURES "${BOOK_CUDA_ARCHITECTURES}")
  get_filename_component(_cuda_bin "${CMAKE_CUDA_COMPILER}" DIRECTORY)
  find_program(BOOK_CUOBJDUMP cuobjdump HINTS "${_cuda_bin}")
  find_program(BOOK_NCU ncu HINTS "${_cuda_bin}" /usr/local/cuda/bin)
  find_program(BOOK_SANITIZER compute-sanitizer HINTS "${_cuda_bin}" /usr/local/cuda/bin)
else()
  message(WARNING
    "No CUDA compiler (nvcc) was found. The CUDA programs are not compiled; "
    "the book shows their committed recordings (recordings/<gpu>/), and the "
    "GPU and sanitizer tests report skipped. Install the CUDA Toolkit or set "
    "CMAKE_CUDA_COMPILER to build them.")
endif()

# Is there a GPU to run on? AUTO asks nvidia-smi at configure time.
set(BOOK_GPU_COUNT 0)
if(BOOK_HAVE_CUDA AND NOT BOOK_GPU STREQUAL "OFF")
  find_program(BOOK_NVIDIA_SMI nvidia-smi)
  if(BOOK_NVIDIA_SMI)
    execute_process(COMMAND "${BOOK_NVIDIA_SMI}" -L
                    OUTPUT_VARIABLE _smi RESULT_VARIABLE _smi_rc ERROR_QUIET)
    if(_smi_rc EQUAL 0)
      string(REGEX MATCHALL "GPU [0-9]+:" _gpus "${_smi}")
      list(LENGTH _gpus BOOK_GPU_COUNT)
    endif()
  endif()
endif()
if(BOOK_GPU STREQUAL "ON" AND BOOK_GPU_COUNT EQUAL 0)
  message(FATAL_ERROR "BOOK_GPU=ON, but no GPU was found (nvidia-smi -L listed none, or CUDA is missing).")
endif()
set(BOOK_GPU_LIVE OFF)
if(BOOK_GPU_COUNT GREATER 0)
  set(BOOK_GPU_LIVE ON)
endif()
# The live GPU's compute capability (75 for 7.5; empty where there is none, or
# nvidia-smi does not say): a run whose program needs more (book_program's
# NEEDS_CC) is skipped here with the reason (cmake/BookRuns.cmake).
set(BOOK_GPU_CC "")
if(BOOK_GPU_LIVE)
  include(BookGpus)
  _book_live_gpu_cc(BOOK_GPU_CC "${BOOK_NVIDIA_SMI}")
endif()

# A CTest resource specification: four "gpus" slots per GPU. No test times
# anything (the timed runs are the build's, made alone: book_gpu_runs), so up to
# four GPU tests (sanitizers, the GPU exercises) share one GPU, and a machine with
# several GPUs spreads them over all.
set(_spec "{\n  \"version\": {\"major\": 1, \"minor\": 0},\n  \"local\": [{\n    \"gpus\": [")
set(_sep "")
if(BOOK_GPU_COUNT GREATER 0)
  math(EXPR _last_gpu "${BOOK_GPU_COUNT} - 1")
  # cmake-lint: disable=E1120
  # (cmake-lint reads foreach(... RANGE <start> <stop>) as missing an argument.)
  foreach(i RANGE 0 ${_last_gpu})
    string(APPEND _spec "${_sep}{\"id\": \"${i}\", \"slots\": 4}")
    set(_sep ", ")
  endforeach()
else()
  string(APPEND _spec "{\"id\": \"none\", \"slots\": 1}")
endif()
string(APPEND _spec "]\n  }]\n}\n")
file(WRITE "${CMAKE_BINARY_DIR}/ctest-resources.json" "${_spec}")

# The GPU this build's records are of (BOOK_GPU_MODEL): where GPU programs run
# live, this machine's, whatever it is (tools/book record records it into
# recordings/<its slug>/); elsewhere the lead reference GPU's recordings
# (book/gpus.json), with every other reference GPU's beside them
# (cmake/BookRuns.cmake). It is no setting: a value left in the cache by an
# older configure is dropped.
include(BookGpus)
unset(BOOK_GPU_MODEL CACHE)
if(BOOK_GPU_LIVE)
  _book_live_gpu_model(BOOK_GPU_MODEL "${BOOK_NVIDIA_SMI}")
else()
  set(BOOK_GPU_MODEL "${BOOK_GPU_LEAD}")
endif()
# The slug names the recordings folder: "NVIDIA H200" -> nvidia-h200.
book_gpu_slug(BOOK_GPU_SLUG "${BOOK_GPU_MODEL}")
set(BOOK_GPU_SLUG "${BOOK_GPU_SLUG}" CACHE INTERNAL "recordings/<slug> of BOOK_GPU_MODEL")
# (In the cache for tools/book, which reads what GPU a build recorded.)
set(BOOK_GPU_MODEL "${BOOK_GPU_MODEL}" CACHE INTERNAL "the GPU this build's records are of")
