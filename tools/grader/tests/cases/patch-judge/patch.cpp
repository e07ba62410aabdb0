
// Hostile: a static constructor looks up Catch::RunContext's vtable, makes its
// page writable (mprotect) and points every slot at a function that does
// nothing, so that assertions would pass unseen. The worker holds no Catch2:
// there is nothing to patch, and the judge's own process is out of reach.
#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>

namespace {
void nothing() {}
struct Patch {
    Patch() {
        void* vt = dlsym(RTLD_DEFAULT, "_ZTVN5Catch10RunContextE");
        std::fprintf(stderr, "Catch::RunContext's vtable here: %p\n", vt);
        if (vt == nullptr) return;
        const long page = sysconf(_SC_PAGESIZE);
        auto* slots = static_cast<void**>(vt) + 2;
        auto start = reinterpret_cast<std::uintptr_t>(slots) & ~static_cast<std::uintptr_t>(page - 1);
        mprotect(reinterpret_cast<void*>(start), static_cast<std::size_t>(page) * 2,
                 PROT_READ | PROT_WRITE);
        for (int i = 0; i < 20; ++i) slots[i] = reinterpret_cast<void*>(&nothing);
    }
} patch;
}  // namespace
