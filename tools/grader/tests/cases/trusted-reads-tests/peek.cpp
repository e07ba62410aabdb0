
// The attack, under --trusted (no namespaces): read the hidden tests and the
// solution from the repository and print them, and write a file into it.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

namespace {

struct Peek {
    Peek() {
        for (const char* path :
             {"@REPO@/tests/ch03-reductions/exercises/ex04-float-sums/hidden.test.cpp",
              "@REPO@/solutions/ch03-reductions/ex04-float-sums/float_sums.cpp"}) {
            std::ifstream in(path);
            std::stringstream text;
            text << in.rdbuf();
            std::cerr << "PEEK " << path << ": " << (in ? text.str() : "(cannot read)") << "\n";
        }
        std::ofstream("@REPO@/trusted-escape.txt") << "written by a submission\n";
    }
};

Peek peek;

}  // namespace
