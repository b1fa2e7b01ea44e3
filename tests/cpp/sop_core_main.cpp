/* Runner of the SOP core tests (see check.hpp).
 * SPDX-License-Identifier: MIT */

#include "check.hpp"

#include <cstdio>
#include <exception>
#include <map>

namespace check {
namespace {

int passed = 0, failed = 0;

std::map<std::string, void (*)()> &tests() {
    static std::map<std::string, void (*)()> all;
    return all;
}

} // namespace

void record(bool ok, const char *file, int line, const std::string &what) {
    if (ok) {
        ++passed;
    } else {
        ++failed;
        std::printf("%s:%d: FAILED: %s\n", file, line, what.c_str());
    }
}

Register::Register(const char *name, void (*test)()) { tests()[name] = test; }

} // namespace check

int main() {
    for (const auto &test : check::tests()) {
        try {
            test.second();
        } catch (const std::exception &e) {
            check::record(false, test.first.c_str(), 0, std::string("unexpected exception: ") + e.what());
        }
    }
    std::printf("SOP core: %d passed, %d failed\n", check::passed, check::failed);
    return check::failed == 0 ? 0 : 1;
}
