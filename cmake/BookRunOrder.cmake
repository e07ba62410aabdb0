# SPDX-License-Identifier: MIT
# The order of the GPU runs in the build (cmake/BookRuns.cmake's
# _book_run_register lists them): the measuring ones alone, after everything
# else; then the GPU runs that time nothing. book_finish (cmake/Book.cmake)
# defers _book_order_gpu_runs to the end of the top-level CMakeLists.txt.
# Tests: book.bad.record-* (tools/book record builds book_gpu_runs); gpu.* of
# every chapter.

# Every target that compiles something, in `dir` and below it.
function(_book_compile_targets out dir)
  set(found "")
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t IN LISTS targets)
    get_target_property(type ${t} TYPE)
    if(type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|OBJECT_LIBRARY|MODULE_LIBRARY)$")
      list(APPEND found ${t})
    endif()
  endforeach()
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    _book_compile_targets(below "${sub}")
    list(APPEND found ${below})
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

# GPU runs that measure time kernels on a quiet host: none starts before every
# program, test and library is compiled, every CPU run has run and every output
# registered in BOOK_BEFORE_GPU_OUTPUTS (the diagrams) is made; and they run one
# at a time (the pool book_gpu). The GPU runs that time nothing come after them.
# Targets: book_before_gpu (all of that), book_gpu_runs (every live GPU run that
# measures; `tools/book record` builds it alone with -j 1).
# Called at the end of the top-level CMakeLists.txt (book_finish defers it), when
# every target exists.
function(_book_order_gpu_runs)
  get_property(gpu_records GLOBAL PROPERTY BOOK_GPU_RECORD_TARGETS)
  if(NOT gpu_records)
    return()
  endif()
  _book_compile_targets(compiled "${CMAKE_SOURCE_DIR}")
  add_custom_target(book_compiled)
  add_dependencies(book_compiled ${compiled})
  get_property(outputs GLOBAL PROPERTY BOOK_BEFORE_GPU_OUTPUTS)
  add_custom_target(book_before_gpu DEPENDS ${outputs})
  add_dependencies(book_before_gpu book_compiled)
  get_property(names GLOBAL PROPERTY BOOK_RUNS)
  foreach(name IN LISTS names)
    get_property(gpu GLOBAL PROPERTY "BOOK_R_${name}_GPU")
    if(NOT gpu)
      string(REPLACE "/" "." tname "${name}")
      add_dependencies(book_before_gpu "record.${tname}")
    endif()
  endforeach()
  add_custom_target(book_gpu_runs)
  foreach(t IN LISTS gpu_records)
    add_dependencies(${t} book_before_gpu)
    add_dependencies(book_gpu_runs ${t})
  endforeach()
  get_property(shared GLOBAL PROPERTY BOOK_GPU_SHARED_TARGETS)
  foreach(t IN LISTS shared)
    add_dependencies(${t} book_gpu_runs)
  endforeach()
endfunction()
