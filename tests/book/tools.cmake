# SPDX-License-Identifier: MIT
# Included from tests/book/CMakeLists.txt, in its scope (book_bad_test, fx, root, sx):
# the tools: the runner, the fixture chapter, committed recordings, tools/book, the
# header libraries, a failing CUDA call.
# ---- the runner (bookrun) ------------------------------------------------------
foreach(p crash exit3 hang)
  add_executable(book_bad_${p} fixtures/${p}.cpp)
  set_target_properties(book_bad_${p} PROPERTIES OUTPUT_NAME ${p}
                        RUNTIME_OUTPUT_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}/bin")
endforeach()
# A good record first (of `cmake -E true`); the failed run must leave it as it was.
set(run_x $<TARGET_FILE:bookrun> run --name t/x --source-root "${root}" --provenance cxx=x --out x.json)
set(good_x --before ${run_x} -- "${CMAKE_COMMAND}" -E true --before-end --unchanged x.json
           --absent "x.json.*")
book_bad_test(program-crash ${good_x} --code 1
  --expect "program t/x \\(.*/crash\\) was killed by signal 11"
  --expect "crash: about to write through a null pointer"
  -- ${run_x} -- $<TARGET_FILE:book_bad_crash>)
book_bad_test(program-exit ${good_x} --code 1
  --expect "program t/x \\(.*/exit3\\) exited with status 3"
  --expect "exit3: giving up with status 3"
  -- ${run_x} -- $<TARGET_FILE:book_bad_exit3>)
book_bad_test(program-hang ${good_x} --code 1 TIMEOUT 60
  --expect "program t/x \\(.*/hang\\) timed out after 1 s"
  -- ${run_x} --timeout 1 -- $<TARGET_FILE:book_bad_hang>)

# ---- the fixture chapter ---------------------------------------------------------
# The tests below never read a real chapter's programs, records or recordings:
# they use a chapter of their own, ch90-fixture (fixtures/chapter/code/ch90-fixture/:
# one program, tiny.cpp, and its checks). Each copies it into its scratch folder
# (chapter/, the source root of its runs) and makes its records and recordings
# there with the runner, as the build does.
set(fc "${fx}/chapter")
set(fc_code "${fc}/code/ch90-fixture")
add_executable(book_fixture_tiny "${fc_code}/tiny.cpp")
target_link_libraries(book_fixture_tiny PRIVATE book_common)
set_target_properties(book_fixture_tiny PROPERTIES OUTPUT_NAME tiny
                      RUNTIME_OUTPUT_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}/bin")
# The inputs of its GPU run, as book_run would give them (paths in the scratch copy).
set(fc_inputs --name ch90-fixture/tiny --source-root chapter --cxx "${CMAKE_CXX_COMPILER}"
              --include-dir "${CMAKE_SOURCE_DIR}/code/common/include" --schema "${BOOK_SCHEMA}"
              --source chapter/code/ch90-fixture/tiny.cpp --flags "c++20 fixture" --gpu)
# A fresh recording of it, tiny.json (and tiny.volatile.json): run live, saved.
set(fc_record
  --copy "${fc}" chapter
  --before env BOOK_COMMIT=0123456789ab
           $<TARGET_FILE:bookrun> run ${fc_inputs} --checks chapter/code/ch90-fixture/tiny.checks.json
           --provenance cxx=fixture --provenance nvcc=fixture --nvidia-smi chapter/fake-nvidia-smi
           --out live.json -- $<TARGET_FILE:book_fixture_tiny> --as-gpu --before-end
  --before $<TARGET_FILE:bookrun> save --record live.json --recording tiny.json --before-end)
set(verify $<TARGET_FILE:bookrun> verify ${fc_inputs} --recording tiny.json)

# ---- committed GPU recordings (bookrun verify, bookrun save) --------------------
book_bad_test(malformed-recording ${fc_record}
  --copy "${fx}/broken-record.json" tiny.json
  --expect "tiny\\.json:5: malformed JSON"
  -- ${verify} --gpu-model "NVIDIA H200")
book_bad_test(stale-recording ${fc_record}
  --replace chapter/code/ch90-fixture/tiny.cpp "ratio 1.5" "ratio 1.6"
  --expect "the recording of ch90-fixture/tiny is stale"
  --expect "^  code/ch90-fixture/tiny\\.cpp changed$"
  -- ${verify} --gpu-model "NVIDIA H200")
# A data file a run's arguments name is an input: edited, the recording is stale.
set(fc_data --before sh -c "echo 1 2 3 >chapter/code/ch90-fixture/input.txt" --before-end)
book_bad_test(stale-recording-data-file --copy "${fc}" chapter ${fc_data}
  --before env BOOK_COMMIT=0123456789ab $<TARGET_FILE:bookrun> run ${fc_inputs} --arg=chapter/code/ch90-fixture/input.txt
           --provenance cxx=fixture --provenance nvcc=fixture --nvidia-smi chapter/fake-nvidia-smi
           --out live.json -- $<TARGET_FILE:book_fixture_tiny> --as-gpu --before-end
  --before $<TARGET_FILE:bookrun> save --record live.json --recording tiny.json --before-end
  --replace chapter/code/ch90-fixture/input.txt "1 2 3" "1 2 4"
  --expect "the recording of ch90-fixture/tiny is stale"
  --expect "^  code/ch90-fixture/input\\.txt changed$"
  -- ${verify} --arg=chapter/code/ch90-fixture/input.txt --gpu-model "NVIDIA H200")
# ... and one outside the tree cannot be hashed alike on every machine: refused.
book_bad_test(run-data-file-outside --copy "${fc}" chapter
  --expect "the argument '/etc/hostname' names the file /etc/hostname, which is outside the source tree"
  -- $<TARGET_FILE:bookrun> run ${fc_inputs} --arg=/etc/hostname --provenance cxx=fixture
     --out live.json -- $<TARGET_FILE:book_fixture_tiny>)
book_bad_test(recording-missing-field ${fc_record}
  --json-del tiny.json stdout
  --expect "tiny\\.json: field 'stdout' is missing"
  -- ${verify} --gpu-model "NVIDIA H200")
book_bad_test(recording-gpu-model ${fc_record}
  --expect "tiny\\.json: the recording was made on a NVIDIA H200, but this book shows the NVIDIA H100"
  -- ${verify} --gpu-model "NVIDIA H100")
book_bad_test(recording-check ${fc_record}
  --expect "check 'impossible-ratio' failed: ratio = 1\\.5, expected >= 100 and <= 200"
  -- ${verify} --gpu-model "NVIDIA H200" --checks chapter/code/ch90-fixture/impossible.checks.json)
# A live record whose checks failed never becomes a recording.
book_bad_test(save-failed-checks ${fc_record}
  --copy live.json failed.json
  --json-set failed.json "checks>1>ok" false
  --unchanged tiny.json --unchanged tiny.volatile.json
  --expect "ch90-fixture/tiny ran, but: 1 of 2 checks failed"
  --expect "check 'ratio-in-range' failed"
  -- $<TARGET_FILE:bookrun> save --record failed.json --recording tiny.json)

# ---- tools/book: Node.js packages, one command at a time, recordings' commits ---------
# (tools-installed, one-tools-book, recording-committed-at)
set(book_sh "${root}/tools/book")
# What `tools/book snapshot` and `tools/book record` run of the package (bookpy.build.snapshot).
set(snapshot_py --copy "${root}/tools/bookpy/__init__.py" repo/tools/bookpy/__init__.py
                --copy "${root}/tools/bookpy/build/__init__.py" repo/tools/bookpy/build/__init__.py
                --copy "${root}/tools/bookpy/build/snapshot.py" repo/tools/bookpy/build/snapshot.py)
# A node_modules without Puppeteer: `tools/book deps` notices and runs npm ci (a
# stand-in that repairs nothing), then says it still cannot load it.
set(partial --before ${BOOK_PY} "${CMAKE_CURRENT_SOURCE_DIR}/partial_node_modules.py" "${root}" .
            --before-end)
# (They need Node.js, which a machine that builds no HTML, such as the GPU
# machine, may not have.)
find_program(BOOK_NODE node)
if(NOT BOOK_NODE)
  book_tool_missing("Node.js (node)" nodejs
                    "the tests book.bad.deps-partial-node-modules and book.bad.mermaid-partial-node-modules")
else()
book_bad_test(deps-partial-node-modules OUTSIDE ${partial}
  --expect "installing Mermaid CLI from package-lock.json: Mermaid CLI cannot be loaded .*Cannot find package 'puppeteer'"
  --expect "^fake npm: ci "
  --expect "Mermaid CLI still cannot be loaded after npm ci: .*'puppeteer'"
  -- sh -c "PATH=\"$PWD/fakebin:$PATH\" repo/tools/book deps")
# ... and a diagram rendered with it fails in one line that says what to do.
book_bad_test(mermaid-partial-node-modules OUTSIDE ${partial}
  --expect "^d\\.mmd: error: Mermaid CLI cannot load 'puppeteer': node_modules is incomplete. run `tools/book deps`"
  --reject "node:internal|ERR_MODULE_NOT_FOUND|^ +at "
  --absent "out/*"
  -- ${BOOK_PY} -m bookpy.build.render_diagram repo repo/d.mmd out/d.svg)
endif()
# Two tools/book at once in one checkout: the second waits, saying for whom, or
# refuses (BOOK_LOCK_WAIT=0), or gives up after BOOK_LOCK_WAIT seconds.
set(holder "mkdir -p repo/build && echo 'tools/book build (pid 4242, started 12:00:00)' >repo/build/.book.lock.who && (flock repo/build/.book.lock sleep 3 &) && sleep 0.5 && ")
book_bad_test(concurrent-refused --copy "${book_sh}" repo/tools/book
  --expect "^tools/book: tools/book build \\(pid 4242, started 12:00:00\\) is running in this checkout .*not starting a second one"
  -- sh -c "${holder}BOOK_LOCK_WAIT=0 repo/tools/book build")
book_bad_test(concurrent-gives-up --copy "${book_sh}" repo/tools/book
  --expect "^tools/book: waiting for tools/book build \\(pid 4242, started 12:00:00\\) to finish"
  --expect "^tools/book: gave up after 1 s: tools/book build \\(pid 4242, started 12:00:00\\) still holds .*/repo/build/\\.book\\.lock"
  -- sh -c "${holder}BOOK_LOCK_WAIT=1 repo/tools/book build")
# The reader's GPU architectures (BOOK_CUDA_ARCHITECTURES in the environment) reach
# every configure tools/book runs, after the preset's default; a value that is not
# a list of compute capabilities is refused, naming it. (A stand-in cmake prints
# its arguments and fails.)
set(fake_cmake --copy "${book_sh}" repo/tools/book
  --before sh -c "mkdir -p repo/chapters fakebin && : >repo/chapters/ch01-x.md && printf '#!/bin/sh\\necho \"fake cmake: $*\"\\nexit 1\\n' >fakebin/cmake && chmod +x fakebin/cmake" --before-end)
book_bad_test(reader-architectures ${fake_cmake}
  --expect "^fake cmake: --preset gpu -DBOOK_CUDA_ARCHITECTURES=86 -DBOOK_RECORDINGS_ROOT="
  -- sh -c "PATH=\"$PWD/fakebin:$PATH\" BOOK_CUDA_ARCHITECTURES=86 repo/tools/book explore ch01-x")
book_bad_test(reader-architectures-refused ${fake_cmake} --code 2
  --expect "^tools/book: BOOK_CUDA_ARCHITECTURES='sm_86' in the environment is not a list of compute capabilities"
  --reject "fake cmake"
  -- sh -c "PATH=\"$PWD/fakebin:$PATH\" BOOK_CUDA_ARCHITECTURES=sm_86 repo/tools/book explore ch01-x")
book_bad_test(concurrent-waits --copy "${book_sh}" repo/tools/book
  ${snapshot_py}
  --expect "^tools/book: waiting for tools/book build \\(pid 4242, started 12:00:00\\) to finish(.|\n)*is not a git checkout and has no \\.carry/snapshot\\.json"
  -- sh -c "${holder}BOOK_LOCK_WAIT=30 repo/tools/book record")
# tools/book record names the commit it records at only where that is proven.
# (BOOK_COMMIT emptied: `tools/book record` exports its own to the tests it runs.)
set(git_repo --env BOOK_COMMIT= --copy "${book_sh}" repo/tools/book ${snapshot_py}
  --copy "${root}/.gitignore" repo/.gitignore
  --before sh -c "cd repo && echo text >README.md && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm fixture" --before-end)
book_bad_test(record-uncommitted ${git_repo}
  --replace repo/README.md text changed
  --expect "^tools/book record: the checkout has changes that are not committed"
  --expect "^   ?M README\\.md"
  --absent "repo/build/gpu"
  -- repo/tools/book record)
book_bad_test(record-commit-mismatch ${git_repo} --env BOOK_COMMIT=0123456789ab
  --expect "^tools/book record: BOOK_COMMIT=0123456789ab, but this tree is commit [0-9a-f]{12}"
  --absent "repo/build/gpu"
  -- repo/tools/book record)
book_bad_test(record-no-snapshot --env BOOK_COMMIT= --copy "${book_sh}" repo/tools/book
  ${snapshot_py}
  --expect "is not a git checkout and has no \\.carry/snapshot\\.json, so nothing proves which commit it is"
  -- repo/tools/book record)
# A copy without .git (as the GPU machine gets) whose files are not the snapshot's commit.
set(copy_with_snapshot ${git_repo}
  --before sh -c "repo/tools/book snapshot && mkdir copy && cp -r repo/tools repo/README.md repo/.gitignore repo/.carry copy/" --before-end)
book_bad_test(record-snapshot-mismatch ${copy_with_snapshot}
  --replace copy/README.md text changed
  --copy "${book_sh}" copy/extra.txt
  --expect "^tools/book record: this tree is not commit [0-9a-f]{12} of the snapshot \\.carry/snapshot\\.json"
  --expect "^  1 files differ from that commit: README\\.md"
  --expect "^  1 files are not in that commit: extra\\.txt"
  --absent "copy/build/gpu"
  -- copy/tools/book record)
# ... and one that is: record goes on to configure (which fails here: no CMakeLists.txt).
book_bad_test(record-snapshot-accepted ${copy_with_snapshot}
  --expect "^tools/book record: recording at commit [0-9a-f]{12}$"
  -- copy/tools/book record)

# ---- the header libraries: one folder each (header-libs-one-folder) ---------------
# On made-up folders (header_libs.cmake): the GPU machine (nlohmann-json 3.11.3 in its
# /usr/include, the rest carried) passes; an old carry folder holding every library
# mixes two nlohmann-json versions and fails, naming both.
set(hl "${CMAKE_COMMAND}" -DWORK=libs -DSOURCE=${root})
set(hl_script -P "${CMAKE_CURRENT_SOURCE_DIR}/header_libs.cmake")
book_bad_test(header-libs-mixed
  --expect "Two versions of nlohmann-json could mix:\\s+.*/libs/sys/nlohmann/json\\.hpp\\s+\\(nlohmann-json\\s+3\\.11\\.3\\)"
  --expect "/libs/old-carry/nlohmann/json\\.hpp\\s+\\(nlohmann-json\\s+3\\.11\\.2\\)\\s+lies\\s+in"
  --expect "the\\s+folder\\s+CLI11\\s+is\\s+taken\\s+from"
  -- ${hl} -DSCENARIO=mixed ${hl_script})
book_bad_test(header-libs-missing
  --expect "Missing CLI/CLI\\.hpp \\(CLI11, Debian package libcli11-dev\\)"
  -- ${hl} -DSCENARIO=missing ${hl_script})
book_bad_test(header-libs-cuda-mixed
  --expect "Two versions of fmt could mix:\\s+.*/libs/full-sys/fmt/format\\.h\\s+\\(fmt\\s+9\\.1\\.0\\)"
  --expect "also\\s+searches\\s+.*/libs/cuda-include"
  -- ${hl} -DSCENARIO=cuda-mixed ${hl_script})
add_test(NAME book.header-libs-gpu-machine COMMAND ${hl} -DSCENARIO=gpu-machine ${hl_script}
         WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
set_tests_properties(book.header-libs-gpu-machine PROPERTIES LABELS book
  PASS_REGULAR_EXPRESSION "json: 3\\.11\\.3 from system sys\ncli11: 2\\.1\\.2 from carried carry/cli11\nfmt: 9\\.1\\.0 from carried carry/fmt\ncatch2: 2\\.13\\.10 from carried carry/catch2")
# The real configure step, given that GPU machine's folders with the old carry folder.
set(libs "${CMAKE_CURRENT_BINARY_DIR}/scratch/book.bad.header-libs-configure/libs")
book_bad_test(header-libs-configure TIMEOUT 180
  --before ${hl} -DSCENARIO=prepare ${hl_script} --before-end
  --expect "Two versions of nlohmann-json could mix:\\s+.*/libs/sys/nlohmann/json\\.hpp"
  -- "${CMAKE_COMMAND}" -S "${root}" -B build -G Ninja -DBOOK_DOCS=OFF
     -DCMAKE_CUDA_COMPILER=/nonexistent/nvcc
     "-DBOOK_SYSTEM_INCLUDE_DIRS=${libs}/sys" "-DBOOK_HOST_INCLUDE=${libs}/old-carry")

# ---- a GPU program whose CUDA call fails (skipped without a GPU) ----------------
if(BOOK_HAVE_CUDA)
  add_executable(book_bad_cuda_fail fixtures/cuda_fail.cu)
  set_target_properties(book_bad_cuda_fail PROPERTIES OUTPUT_NAME cuda_fail
                        RUNTIME_OUTPUT_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}/bin")
  target_link_libraries(book_bad_cuda_fail PRIVATE book_cuda)
  book_bad_test(gpu.bad.cuda-error LABELS "gpu;book" SKIP_RETURN_CODE 77 --skip-code 77 --code 1
    --expect "program t/cuda-fail \\(.*/cuda_fail\\) exited with status 1"
    --expect "cudaMalloc\\(&p, \\(size_t\\)1 << 62\\) failed at .*cuda_fail\\.cu:11"
    -- $<TARGET_FILE:bookrun> run --name t/cuda-fail --source-root "${root}" --provenance cxx=x
       --gpu --skip-without-gpu --out x.json -- $<TARGET_FILE:book_bad_cuda_fail>)
  set_tests_properties(gpu.bad.cuda-error PROPERTIES RESOURCE_GROUPS "gpus:1")
endif()

# ---- tools/book record on any GPU (record-any-gpu) ----------------------------------
# A stand-in project with a GPU run reporting an H100 (the lead is the H200): record
# names the H100, records it into recordings/nvidia-h100-80gb-hbm3/, prints its phase
# times and the drift table (with the H200's recordings), and takes the H100 off the
# run's entry in recordings/pending.json (tests/book/record_any_gpu.py).
find_program(BOOK_NINJA ninja)
if(BOOK_NINJA)
  add_test(NAME book.record-any-gpu
           COMMAND ${BOOK_PY} "${CMAKE_CURRENT_SOURCE_DIR}/record_any_gpu.py" --root "${root}"
                   --bookrun $<TARGET_FILE:bookrun>
                   --scratch "${CMAKE_CURRENT_BINARY_DIR}/scratch/book.record-any-gpu")
  set_tests_properties(book.record-any-gpu PROPERTIES LABELS book TIMEOUT 300)
endif()
