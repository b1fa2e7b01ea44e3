/* C API test of grip: pinches. A cloth between two collider-mesh plates that close to half the
 * contact thickness: under GRIP_FAILURE_POLICY_CONTINUE the advance succeeds and
 * GripStepReport names the pinch (GRIP_WARNING_PINCH, pinched_vertices, pinch_*); under
 * GRIP_FAILURE_POLICY_STRICT it fails with GRIP_STATUS_NOT_CONVERGED, a message naming the
 * pinch, and the solver unchanged. See check.h. */

#include "check.h"

#include <string.h>

#define PINCH_DELTA 2e-3 /* contact thickness (m) */
#define PINCH_GRID 4     /* cloth vertices per side */
#define PINCH_N (PINCH_GRID * PINCH_GRID)
#define PINCH_T (2 * (PINCH_GRID - 1) * (PINCH_GRID - 1))

/* A plate: the 0.3 m square [-0.15, 0.15]² (square_at) as two triangles facing +z (UP_T) or -z
 * (DOWN_T). */
static const uint32_t UP_T[6] = {0, 1, 2, 0, 2, 3};
static const uint32_t DOWN_T[6] = {0, 2, 1, 0, 3, 2};

/* The floor at z = 0, the lid at 3 delta, and a 0.1 m cloth delta/2 above the floor; the lid is
 * set to move to delta/2 over the next advance. Returns the solver; ids in `ids` (floor, lid,
 * cloth). */
static GripSolver *plates(uint32_t policy, GripObjectId ids[3]) {
    GripSolverParams p = grip_solver_params_default();
    p.time_step = 1.0 / 240.0;
    p.contact_thickness = PINCH_DELTA;
    p.collider_mesh_contact = GRIP_COLLIDER_MESH_CONTACT_EXACT;
    p.failure_policy = policy;
    GripSolver *s = NULL;
    EXPECT_OK(grip_solver_create(&p, &s));
    double x[12];
    square_at(-0.15, 0.15, 0.0, x);
    EXPECT_OK(grip_solver_add_collider_mesh(s, x, 4, UP_T, 2, &ids[0]));
    square_at(-0.15, 0.15, 3.0 * PINCH_DELTA, x);
    EXPECT_OK(grip_solver_add_collider_mesh(s, x, 4, DOWN_T, 2, &ids[1]));
    double cx[3 * PINCH_N];
    uint32_t ct[3 * PINCH_T];
    for (int j = 0; j < PINCH_GRID; j++) {
        for (int i = 0; i < PINCH_GRID; i++) {
            double *v = &cx[3 * (j * PINCH_GRID + i)];
            v[0] = -0.05 + 0.1 * i / (PINCH_GRID - 1);
            v[1] = -0.05 + 0.1 * j / (PINCH_GRID - 1);
            v[2] = 0.5 * PINCH_DELTA;
        }
    }
    int t = 0;
    for (int j = 0; j + 1 < PINCH_GRID; j++) {
        for (int i = 0; i + 1 < PINCH_GRID; i++) {
            uint32_t a = (uint32_t)(j * PINCH_GRID + i), b = a + 1, c = a + PINCH_GRID + 1, d = a + PINCH_GRID;
            const uint32_t two[6] = {a, b, c, a, c, d};
            memcpy(&ct[6 * t++], two, sizeof two);
        }
    }
    GripMaterial m = grip_material_default();
    EXPECT_OK(grip_solver_add_shell(s, cx, PINCH_N, ct, PINCH_T, &m, &ids[2]));
    square_at(-0.15, 0.15, 0.5 * PINCH_DELTA, x);
    EXPECT_OK(grip_solver_set_collider_positions(s, ids[1], x, 4));
    return s;
}

void test_pinch(void) {
    GripObjectId ids[3];
    GripStepReport r;
    GripSolver *going_on = plates(GRIP_FAILURE_POLICY_CONTINUE, ids);
    EXPECT_OK(grip_solver_advance(going_on, 1.0 / 24.0));
    EXPECT_OK(grip_solver_get_report(going_on, &r));
    CHECK((r.warnings & GRIP_WARNING_PINCH) != 0);
    CHECK(r.pinched_vertices > 0 && r.pinched_vertices <= PINCH_N);
    CHECK(r.pinch_substeps > 0 && r.pinch_substeps <= 10);
    CHECK(r.pinch_object == ids[2] && r.pinch_vertex < PINCH_N);
    CHECK((r.pinch_colliders[0] == ids[0] && r.pinch_colliders[1] == ids[1]) ||
          (r.pinch_colliders[0] == ids[1] && r.pinch_colliders[1] == ids[0]));
    CHECK(r.pinch_separation > 0.0 && r.pinch_separation < PINCH_DELTA);
    CHECK(r.pinch_position[2] > -PINCH_DELTA && r.pinch_position[2] < PINCH_DELTA);
    grip_solver_destroy(going_on);

    Watch saved = g_watch;
    GripSolver *strict = plates(GRIP_FAILURE_POLICY_STRICT, ids);
    memset(&g_watch, 0, sizeof g_watch);
    g_watch.solver = strict;
    g_watch.object_count = 3;
    for (int k = 0; k < 3; k++) {
        g_watch.ids[k] = ids[k];
        g_watch.vertex_counts[k] = k < 2 ? 4 : PINCH_N;
    }
    watch_snapshot();
    EXPECT_STATUS(grip_solver_advance(strict, 1.0 / 24.0), GRIP_STATUS_NOT_CONVERGED, "is pinched between");
    CHECK(watch_unchanged());
    EXPECT_OK(grip_solver_get_report(strict, &r));
    CHECK((r.warnings & GRIP_WARNING_PINCH) != 0 && r.pinched_vertices > 0 && r.converged == 0);
    grip_solver_destroy(strict);
    g_watch = saved;
}
