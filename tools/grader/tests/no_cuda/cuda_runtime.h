// SPDX-License-Identifier: MIT
// Stands for the CUDA runtime's header where no CUDA toolkit is installed (the
// Gradescope kit's build): the CPU test worker speed_fake_worker.cpp draws its
// inputs with book::random_u32 (code/common/include/book/random.hpp), whose hash is
// host code as well and needs only these two words of the header
// (tools/grader/tests/tests.cmake).
#pragma once
#define __host__
#define __device__
