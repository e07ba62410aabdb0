# SPDX-License-Identifier: MIT
# The source archive of the commit this book is built from (cmake -P; run by
# every build, cmake/BookSite.cmake):
#
#   cmake -DROOT=<repository> -DOUTDIR=<downloads folder> -P BookPackSource.cmake
#
# Writes OUTDIR/how-gpus-run-code-<commit>.tar.gz (git archive of HEAD: the
# committed tree, with a top folder of the same name, less what only an
# instructor may read: solutions/, every hidden test set, the files
# cmake/BookExerciseContract.cmake names tests/<key>/exercises/<ex>/hidden.test.*,
# and the grader's own tests, tools/grader/tests, whose cases quote both)
# when the commit changes,
# and OUTDIR/source.json, {"commit", "archive", "changed"} ("changed": the
# checkout has changes the archive does not hold), rewritten only when its
# content changes. Without git or outside a git checkout, source.json says
# {"commit": "", "archive": ""}: the pages then offer no archive. The site
# links the archive where the book has no public address (BOOK_REPOSITORY_URL).
# The archive is part of the reader's edition (exercises.reader-edition reads
# it), and it builds: without solutions/ the build leaves the exercises' own
# tests out and says so (cmake/BookExercises.cmake).
cmake_minimum_required(VERSION 3.18)
foreach(v ROOT OUTDIR)
  if(NOT ${v})
    message(FATAL_ERROR "BookPackSource.cmake: -D${v}=... is required")
  endif()
endforeach()
file(MAKE_DIRECTORY "${OUTDIR}")
set(commit "")
set(archive "")
set(changed false)
find_program(_git git)
if(_git)
  execute_process(COMMAND "${_git}" -C "${ROOT}" rev-parse --short=12 HEAD
                  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _rc ERROR_QUIET)
  if(NOT _rc EQUAL 0)
    set(commit "")
  endif()
endif()
if(commit)
  set(name "how-gpus-run-code-${commit}")
  set(archive "${OUTDIR}/${name}.tar.gz")
  if(NOT EXISTS "${archive}")
    file(GLOB _old "${OUTDIR}/how-gpus-run-code-*.tar.gz")
    if(_old)
      file(REMOVE ${_old})
    endif()
    execute_process(COMMAND "${_git}" -C "${ROOT}" archive --format=tar.gz "--prefix=${name}/"
                            -o "${archive}.tmp" HEAD -- . ":(exclude)solutions"
                            ":(exclude,glob)tests/*/exercises/*/hidden.test.*"
                            ":(exclude)tools/grader/tests"
                    RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      file(REMOVE "${archive}.tmp")
      message(FATAL_ERROR "BookPackSource.cmake: git archive of ${commit} failed (${_rc})")
    endif()
    file(RENAME "${archive}.tmp" "${archive}")
  endif()
  execute_process(COMMAND "${_git}" -C "${ROOT}" status --porcelain --untracked-files=no
                  OUTPUT_VARIABLE _status OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(_status)
    set(changed true)
  endif()
endif()
file(WRITE "${OUTDIR}/source.json.tmp"
     "{\"commit\": \"${commit}\", \"archive\": \"${archive}\", \"changed\": ${changed}}\n")
execute_process(COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${OUTDIR}/source.json.tmp"
                        "${OUTDIR}/source.json")
file(REMOVE "${OUTDIR}/source.json.tmp")
