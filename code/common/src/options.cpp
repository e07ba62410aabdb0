#include "book/options.hpp"

#include <cstdio>
#include <limits>
#include <string_view>

#include <CLI/CLI.hpp>

namespace book {

struct options::impl {
    CLI::App app;
    explicit impl(std::string description) : app(std::move(description)) {}
};

namespace {

// Keeps an integer within [min, max], saying so in plain words ("must be at
// least 1, not 0") rather than printing the limits of the type.
CLI::Validator within(long long min, long long max, long long type_min, long long type_max) {
    std::string rule = min > type_min && max < type_max
                           ? std::to_string(min) + ".." + std::to_string(max)
                       : min > type_min ? ">= " + std::to_string(min)
                       : max < type_max ? "<= " + std::to_string(max)
                                        : "";
    return CLI::Validator(
        [=](std::string& text) -> std::string {
            long long value = 0;
            std::size_t used = 0;
            try {
                value = std::stoll(text, &used);
            } catch (const std::exception&) {
                return "not an integer: " + text;
            }
            if (used != text.size()) return "not an integer: " + text;
            if (value < min || value > max) {
                if (max >= type_max)
                    return "must be at least " + std::to_string(min) + ", not " + text;
                if (min <= type_min)
                    return "must be at most " + std::to_string(max) + ", not " + text;
                return "must be between " + std::to_string(min) + " and " + std::to_string(max) +
                       ", not " + text;
            }
            return {};
        },
        rule);
}

}  // namespace

std::string program_name(int argc, char** argv) {
    if (argc < 1 || argv == nullptr || argv[0] == nullptr) return "program";
    std::string_view path(argv[0]);
    const auto slash = path.find_last_of('/');
    return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

options::options(std::string description) : impl_(new impl(std::move(description))) {}

options::~options() { delete impl_; }

void options::flag(const std::string& name, bool& target, const std::string& help) {
    impl_->app.add_flag(name, target, help);
}

namespace {

template <class T>
void add_integer(CLI::App& app, const std::string& name, T& target, const std::string& help,
                 long long min, long long max) {
    app.add_option(name, target, help)
        ->check(within(min, max, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()))
        ->capture_default_str();
}

}  // namespace

void options::option(const std::string& name, int& target, const std::string& help, long long min,
                     long long max) {
    add_integer(impl_->app, name, target, help, min, max);
}

void options::option(const std::string& name, long& target, const std::string& help, long long min,
                     long long max) {
    add_integer(impl_->app, name, target, help, min, max);
}

void options::option(const std::string& name, long long& target, const std::string& help,
                     long long min, long long max) {
    add_integer(impl_->app, name, target, help, min, max);
}

std::optional<int> options::parse(int argc, char** argv) {
    try {
        impl_->app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return impl_->app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return impl_->app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::fflush(stdout);
        std::fprintf(stderr, "%s: error: %s\nRun with --help for more information.\n",
                     program_name(argc, argv).c_str(), e.what());
        return 2;
    }
    return std::nullopt;
}

}  // namespace book
