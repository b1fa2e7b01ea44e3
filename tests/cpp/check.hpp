/* A minimal check framework for the C++ unit tests of the Houdini SOP's HDK-independent layer
 * (plugins/houdini/src/core), built by examples/host (CMake or make) and run by
 * cli/tests/host_example.rs. Prints "SOP core: N passed, M failed".
 * SPDX-License-Identifier: MIT */

#ifndef GRIP_TEST_CHECK_HPP
#define GRIP_TEST_CHECK_HPP

#include <string>

namespace check {

/// Records one check; prints file:line and `what` when it failed.
void record(bool ok, const char *file, int line, const std::string &what);

/// Registers a test function at static-initialisation time; main() runs them in name order.
struct Register {
    Register(const char *name, void (*test)());
};

} // namespace check

#define CHECK(cond) ::check::record(static_cast<bool>(cond), __FILE__, __LINE__, #cond)
#define CHECK_MSG(cond, msg) ::check::record(static_cast<bool>(cond), __FILE__, __LINE__, std::string(#cond) + " -- " + (msg))
/// Checks that `expr` throws `type` whose what() contains `needle`.
#define CHECK_THROWS(type, expr, needle)                                                                     \
    do {                                                                                                     \
        bool thrown_ = false;                                                                                \
        std::string what_;                                                                                   \
        try {                                                                                                \
            (void)(expr);                                                                                    \
        } catch (const type &e_) {                                                                           \
            thrown_ = true;                                                                                  \
            what_ = e_.what();                                                                               \
        }                                                                                                    \
        ::check::record(thrown_ && what_.find(needle) != std::string::npos, __FILE__, __LINE__,              \
                        std::string(#expr " throws " #type " containing \"") + (needle) + "\", got \"" + what_ + \
                            "\"");                                                                           \
    } while (0)
#define TEST(name)                                                  \
    static void name();                                             \
    static const ::check::Register register_##name(#name, &name);   \
    static void name()

#endif
