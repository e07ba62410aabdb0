// The worker's driver (tools/grader/judge/grade_bridge.hpp says what a worker is):
// the student's code and this, nothing else. It reads requests on one file
// descriptor, calls the student's function each names, and writes the answer or
// the exception on another; it ends when the judge closes its end. Requests whose
// names begin with '#' are the timed protocol of speed grading (grade_worker.hpp,
// Timed; tools/grader/judge/speed_judge.cpp).
//
//   <worker> <fd in> <fd out>
//
// What the student's code writes to standard output goes to standard error (the
// grader shows both), so that it cannot mix with the answers.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>

#include "grade_worker.hpp"

BOOK_GRADE_EXPORTS(e);  // the exercise's bridge.cpp, compiled with BOOK_GRADE_WORKER

int main(int argc, char** argv) {
    using book::grade::json;
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s <fd in> <fd out>\n", argv[0]);
        return 2;
    }
    const int in = std::atoi(argv[1]);
    const int out = std::atoi(argv[2]);
    std::fflush(stdout);
    ::dup2(2, 1);
    book::grade::Exports exports;
    book_grade_exports(exports);
    for (;;) {
        json request;
        std::string why;
        if (!book::grade::receive_frame(in, request, why)) return 0;  // the judge is done
        json answer;
        try {
            const std::string name = request.at("f").get<std::string>();
            if (name == "?") {
                answer = json{{"r", exports.names()}};
            } else if (name[0] == '#') {  // the timed protocol (speed grading)
                answer = book::grade::timed_request(exports, name, request.at("a"));
                if (answer.is_null()) throw std::logic_error("book::grade: no request " + name);
            } else {
                const auto* f = exports.find(name);
                if (f == nullptr) throw std::logic_error("book::grade: no function " + name);
                answer = json{{"r", (*f)(request.at("a"))}};
            }
        } catch (const std::invalid_argument& x) {
            answer = json{{"x", "invalid_argument"}, {"m", x.what()}};
        } catch (const std::length_error& x) {
            answer = json{{"x", "length_error"}, {"m", x.what()}};
        } catch (const std::out_of_range& x) {
            answer = json{{"x", "out_of_range"}, {"m", x.what()}};
        } catch (const std::domain_error& x) {
            answer = json{{"x", "domain_error"}, {"m", x.what()}};
        } catch (const std::logic_error& x) {
            answer = json{{"x", "logic_error"}, {"m", x.what()}};
        } catch (const std::runtime_error& x) {
            answer = json{{"x", "runtime_error"}, {"m", x.what()}};
        } catch (const std::exception& x) {
            answer = json{{"x", "exception"}, {"m", x.what()}};
        } catch (...) {
            answer = json{{"x", "unknown"}, {"m", "an exception of no standard type"}};
        }
        std::fflush(stdout);
        if (!book::grade::send_frame(out, answer)) return 0;
    }
}
