/* Shared declarations of the C API test of grip (include/grip.h), built and run by tests/c_api.rs.
 *
 * The program is split by concern:
 *   main.c           check bookkeeping, the watched solver, the group-end check and main()
 *   scene.c          the shared scene (a pinned cloth and a tet cube) and the physics tests
 *   create_errors.c  error paths of grip_solver_create, grip_solver_add_shell and _add_solid
 *   integrators.c    the integrator codes and their fields: defaults, accepted and refused values
 *   call_errors.c    error paths of attributes, queries and steps; handles and misaligned outputs
 *   colliders.c      analytic colliders and collider meshes: error paths and a cloth on a floor
 *   checkpoint.c     the solver's state as bytes: exact continuation and refused restores
 *
 * It builds a cloth pinned at two corners plus a free-falling tet cube, checks the physics of
 * advance, driven pins and cancellation, then walks every error path of the C API: each failing
 * call must return its specific status, leave a non-empty grip_last_error() naming the problem,
 * and leave the solver unchanged (positions and velocities compared with memcmp after every
 * failing call; a group ends with an advance that must still succeed).
 *
 * Prints "C API: N passed, M failed" and exits nonzero if any check failed. */

#ifndef GRIP_TEST_CHECK_H
#define GRIP_TEST_CHECK_H

#include "grip.h"

#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------------------------------ */
/* Check bookkeeping (main.c)                                                                 */

extern int g_passed;
extern int g_failed;

void record(int ok, const char *file, int line, const char *what, const char *detail);

#define CHECK(cond) record((cond) ? 1 : 0, __FILE__, __LINE__, #cond, NULL)
#define CHECK_MSG(cond, msg) record((cond) ? 1 : 0, __FILE__, __LINE__, #cond, (msg))

/* ------------------------------------------------------------------------------------------ */
/* The watched solver: positions and velocities of every object, compared after failing calls */

#define MAX_WATCH_OBJECTS 4
#define MAX_WATCH_VERTICES 64

typedef struct {
    GripSolver *solver;
    int object_count;
    GripObjectId ids[MAX_WATCH_OBJECTS];
    size_t vertex_counts[MAX_WATCH_OBJECTS];
    double positions[MAX_WATCH_OBJECTS][3 * MAX_WATCH_VERTICES];
    double velocities[MAX_WATCH_OBJECTS][3 * MAX_WATCH_VERTICES];
} Watch;

extern Watch g_watch;

void watch_snapshot(void);
/* 1 if the watched solver's positions and velocities are bit-identical to the snapshot. */
int watch_unchanged(void);

/* Checks a call's status and message; after a failing call also that the watched solver is
 * unchanged. `substring` (case-insensitive) must occur in the message; NULL skips that. */
void expect_status(const char *file, int line, const char *expr, GripStatus got, GripStatus want,
                   const char *substring);

#define EXPECT_STATUS(call, want, substring) \
    expect_status(__FILE__, __LINE__, #call, (GripStatus)(call), (GripStatus)(want), (substring))
#define EXPECT_OK(call) EXPECT_STATUS(call, GRIP_STATUS_OK, NULL)

/* ------------------------------------------------------------------------------------------ */
/* Scene (scene.c, except g_s, g_cloth and g_cube, defined in main.c)                         */

#define GRID 6                     /* cloth vertices per side */
#define CLOTH_N (GRID * GRID)      /* 36 vertices */
#define CLOTH_T (2 * (GRID - 1) * (GRID - 1)) /* 50 triangles */
#define PIN_A 0                    /* corner (0, 0) */
#define PIN_B (GRID - 1)           /* corner (0.5, 0) */
#define CUBE_N 8
#define CUBE_T 5

extern double g_cloth_x[3 * CLOTH_N];
extern uint32_t g_cloth_t[3 * CLOTH_T];
extern double g_cube_x[3 * CUBE_N];
extern uint32_t g_cube_t[4 * CUBE_T];

extern GripSolver *g_s;            /* the main solver */
extern GripObjectId g_cloth, g_cube;

double tet_det(const double *x, const uint32_t *t);
int all_finite(const double *x, size_t n);

/* The corners (m) of the horizontal square [lo, hi]² at height z, counter-clockwise seen from
 * above: a two-triangle collider mesh's vertices. */
void square_at(double lo, double hi, double z, double out[12]);

/* The group-end check: an advance still succeeds, stays finite, keeps the pins put (so no
 * failing call half-applied "pinned" or "target"), moves the free vertices; then re-snapshots. */
void check_usable(const char *file, int line);
#define CHECK_USABLE() check_usable(__FILE__, __LINE__)

/* ------------------------------------------------------------------------------------------ */
/* Tests, by file (main() fixes the order they run in)                                       */

/* scene.c */
void test_versions(void);
void build_scene(void);
void test_fall(void);
void test_driven_pin(void);
void test_progress(void);
void test_not_converged(void);
void test_empty_solver(void);

/* create_errors.c */
void test_create_errors(void);
void test_add_shell_errors(void);
void test_add_solid_errors(void);
void test_solid_ignores_shell_fields(void);

/* integrators.c */
void test_integrators(void);

/* call_errors.c */
void test_attribute_errors(void);
void test_query_errors(void);
void test_step_errors(void);
void test_misaligned_outputs(void);
void test_handles(void);

/* colliders.c */
void test_colliders(void);

/* checkpoint.c */
void test_checkpoint(void);

/* failure_policy.c */
void test_failure_policy(void);

/* pinch.c */
void test_pinch(void);

#endif /* GRIP_TEST_CHECK_H */
