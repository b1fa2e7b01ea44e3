/* Tests of the warnings the SOP raises on a cook that went on: a fallback (which object failed
 * to converge near where, and when) and a pinch (which object between which colliders, how far
 * apart, and how to free it).
 * SPDX-License-Identifier: MIT */

#include "check.hpp"

#include "fallback_warning.hpp"
#include "pinch_warning.hpp"

#include <cstdint>
#include <string>

using namespace grip_sop;

TEST(fallback_warning_names_object_place_and_moment) {
    CHECK(cook_moment(1.0 / 24.0, 1.0 / 24.0) == "at frame 2" && cook_moment(0.0, 1.0 / 24.0) == "at frame 1");
    CHECK(cook_moment(1.5 / 24.0, 1.0 / 24.0) == "at t = 0.0625 s");
    GripStepReport r{};
    const auto name = [](std::uint32_t id) { return id == 3 ? std::string("sleeve") : std::string(); };
    CHECK(fallback_warning(r, name, "at frame 2").empty());
    r.last_fallback = GRIP_FALLBACK_FRICTIONLESS;
    r.fallbacks_frictionless = 1;
    r.fallback_object = 3;
    r.fallback_position[0] = 0.0124;
    r.fallback_position[1] = -0.5;
    r.fallback_position[2] = 1.0;
    const std::string one = fallback_warning(r, name, "at frame 2");
    CHECK_MSG(one == "sleeve failed to converge near (0.012, -0.500, 1.000) m at frame 2; fallback: frictionless substep",
              one);
    r.fallbacks_lagged = 2;
    r.fallback_object = 9;
    const std::string three = fallback_warning(r, name, "");
    CHECK_MSG(three.find("object 9 failed to converge") == 0 &&
                  three.find("(3 substeps fell back: 2 with lagged friction, 1 frictionless, 0 at the best iterate)") !=
                      std::string::npos,
              three);
}

TEST(pinch_warning_names_objects_place_and_remedy) {
    GripStepReport r{};
    const auto name = [](std::uint32_t id) {
        return id == 3 ? std::string("sleeve") : id == 1 ? std::string("arm") : std::string();
    };
    CHECK(pinch_warning(r, name, "at frame 2", 2e-3).empty());
    r.pinched_vertices = 1;
    r.pinch_object = 3;
    r.pinch_colliders[0] = 1;
    r.pinch_colliders[1] = 1;
    r.pinch_position[2] = 0.1005;
    r.pinch_separation = 1e-3;
    const std::string one = pinch_warning(r, name, "at frame 2", 2e-3);
    CHECK_MSG(one == "sleeve is pinched between arm and itself near (0.000, 0.000, 0.101) m at frame 2: the surfaces "
                     "are 1.0 mm apart, under the contact thickness 2.0 mm; the cloth is kept between them: open the "
                     "gap or thin the contact layer to free it",
              one);
    r.pinched_vertices = 4;
    r.pinch_colliders[1] = 7;
    const std::string four = pinch_warning(r, name, "", 2e-3);
    CHECK_MSG(four.find("between arm and object 7 near") != std::string::npos &&
                  four.find(" m (4 vertices pinched): ") != std::string::npos,
              four);
}
