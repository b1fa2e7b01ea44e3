/* One translation unit for hcustom, which makes one plugin per source file: the SOP glue and
 * its HDK-independent core compiled together (the CMake build compiles them separately).
 *   hcustom -I src -I src/core -I ../../include -L ../../target/release -l grip src/SOP_Grip_hcustom.C
 * (after generating src/SOP_Grip.proto.h; see README.md).
 * SPDX-License-Identifier: MIT */

#include "SOP_Grip.C"

#include "core/attribute_mapping.cpp"
#include "core/collider_input.cpp"
#include "core/cook_state.cpp"
#include "core/fallback_warning.cpp"
#include "core/interruptible_run.cpp"
#include "core/object_split.cpp"
#include "core/pinch_warning.cpp"
#include "core/simulation.cpp"
#include "core/solver_registry.cpp"
#include "core/sop_cook.cpp"
#include "core/sop_parameters.cpp"
