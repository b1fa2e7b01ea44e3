/* C API test of grip: colliders on a solver of their own. Analytic shapes (defaults, transforms,
 * friction) and collider meshes (add, animate, refused attribute writes), every error path with
 * its status, message and unchanged state, and the physics: the shared cloth dropped on a
 * collider-mesh floor comes to rest on top of it. See check.h. */

#include "check.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The floor: the 2 m square [-0.5, 1.5]² (square_at) as two triangles wound counter-clockwise seen
 * from +z. */
static const uint32_t FLOOR_T[6] = {0, 1, 2, 0, 2, 3};
static const double IDENTITY[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

void test_colliders(void) {
    Watch saved = g_watch;
    GripSolverParams params = grip_solver_params_default();
    params.time_step = 0.01;
    GripSolver *s = NULL;
    EXPECT_OK(grip_solver_create(&params, &s));
    GripMaterial cloth = grip_material_default();
    GripObjectId c = 0, floor_id = 0, ball = 0;
    EXPECT_OK(grip_solver_add_shell(s, g_cloth_x, CLOTH_N, g_cloth_t, CLOTH_T, &cloth, &c));
    double floor_x[12], moved[12];
    square_at(-0.5, 1.5, 0.9, floor_x);
    EXPECT_OK(grip_solver_add_collider_mesh(s, floor_x, 4, FLOOR_T, 2, &floor_id));
    CHECK(floor_id != 0 && floor_id != c);
    GripShape shape = grip_shape_default();
    shape.kind = GRIP_SHAPE_SPHERE;
    shape.center[0] = 5.0;
    shape.radius = 0.25;
    EXPECT_OK(grip_solver_add_collider_shape(s, &shape, &ball));
    EXPECT_OK(grip_solver_set_friction(s, c, floor_id, 0.5));

    memset(&g_watch, 0, sizeof g_watch);
    g_watch.solver = s;
    g_watch.object_count = 2;
    g_watch.ids[0] = c;
    g_watch.vertex_counts[0] = CLOTH_N;
    g_watch.ids[1] = floor_id;
    g_watch.vertex_counts[1] = 4;
    watch_snapshot();

    /* Analytic shapes. */
    GripShape bad = shape;
    bad.kind = 7;
    GripObjectId out = 0;
    EXPECT_STATUS(grip_solver_add_collider_shape(s, NULL, &out), GRIP_STATUS_NULL_POINTER, "shape");
    EXPECT_STATUS(grip_solver_add_collider_shape(s, &shape, NULL), GRIP_STATUS_NULL_POINTER, "out_id");
    EXPECT_STATUS(grip_solver_add_collider_shape(s, &bad, &out), GRIP_STATUS_INVALID_ARGUMENT, "kind");
    bad = shape;
    bad.struct_tag = 0;
    EXPECT_STATUS(grip_solver_add_collider_shape(s, &bad, &out), GRIP_STATUS_INVALID_ARGUMENT, "grip_shape_default");
    bad = shape;
    bad.radius = -1.0;
    EXPECT_STATUS(grip_solver_add_collider_shape(s, &bad, &out), GRIP_STATUS_INVALID_ARGUMENT, "radius");
    bad = shape;
    bad.center[1] = NAN;
    EXPECT_STATUS(grip_solver_add_collider_shape(s, &bad, &out), GRIP_STATUS_INVALID_ARGUMENT, "center");
    double m[16];
    memcpy(m, IDENTITY, sizeof m);
    m[0] = 2.0;
    EXPECT_STATUS(grip_solver_set_collider_transform(s, ball, m), GRIP_STATUS_INVALID_ARGUMENT, "not rigid");
    memcpy(m, IDENTITY, sizeof m);
    m[13] = INFINITY;
    EXPECT_STATUS(grip_solver_set_collider_transform(s, ball, m), GRIP_STATUS_INVALID_ARGUMENT, "finite");
    EXPECT_STATUS(grip_solver_set_collider_transform(s, ball, NULL), GRIP_STATUS_NULL_POINTER, "matrix");
    EXPECT_STATUS(grip_solver_set_collider_transform(s, c, IDENTITY), GRIP_STATUS_UNKNOWN_OBJECT, "not a collider");
    EXPECT_STATUS(grip_solver_set_collider_transform(s, 99, IDENTITY), GRIP_STATUS_UNKNOWN_OBJECT, "99");
    EXPECT_STATUS(grip_solver_set_friction(s, c, 99, 0.3), GRIP_STATUS_UNKNOWN_OBJECT, "99");
    EXPECT_STATUS(grip_solver_set_friction(s, c, ball, -0.1), GRIP_STATUS_INVALID_ARGUMENT, "friction");
    EXPECT_STATUS(grip_solver_set_friction(s, c, ball, NAN), GRIP_STATUS_INVALID_ARGUMENT, "friction");

    /* Own μ and the pair μ resolved from it: override, else geometric mean, else the defaults. */
    double mu = -1.0;
    EXPECT_OK(grip_solver_get_friction(s, floor_id, c, &mu));
    CHECK(mu == 0.5);
    EXPECT_OK(grip_solver_get_friction(s, c, ball, &mu));
    CHECK(mu == params.default_friction);
    EXPECT_OK(grip_solver_get_friction(s, c, c, &mu));
    CHECK(mu == 0.0); /* a shell with itself: self-contact friction is opt-in */
    EXPECT_OK(grip_solver_set_object_friction(s, c, 0.4));
    EXPECT_OK(grip_solver_set_object_friction(s, ball, 0.9));
    EXPECT_OK(grip_solver_get_friction(s, ball, c, &mu));
    CHECK(fabs(mu - 0.6) < 1e-15);
    EXPECT_OK(grip_solver_get_friction(s, c, c, &mu));
    CHECK(mu == 0.4);
    EXPECT_OK(grip_solver_get_friction(s, c, floor_id, &mu));
    CHECK(mu == 0.5); /* the override wins over the own μ */
    EXPECT_STATUS(grip_solver_set_object_friction(NULL, c, 0.3), GRIP_STATUS_NULL_POINTER, "solver");
    EXPECT_STATUS(grip_solver_set_object_friction(s, 99, 0.3), GRIP_STATUS_UNKNOWN_OBJECT, "99");
    EXPECT_STATUS(grip_solver_set_object_friction(s, c, -0.1), GRIP_STATUS_INVALID_ARGUMENT, "friction");
    EXPECT_STATUS(grip_solver_set_object_friction(s, c, NAN), GRIP_STATUS_INVALID_ARGUMENT, "friction");
    EXPECT_STATUS(grip_solver_set_object_friction(s, ball, INFINITY), GRIP_STATUS_INVALID_ARGUMENT, "friction");
    EXPECT_STATUS(grip_solver_get_friction(s, c, 99, &mu), GRIP_STATUS_UNKNOWN_OBJECT, "99");
    EXPECT_STATUS(grip_solver_get_friction(s, c, ball, NULL), GRIP_STATUS_NULL_POINTER, "out_mu");
    EXPECT_OK(grip_solver_get_friction(s, c, ball, &mu));
    CHECK(fabs(mu - 0.6) < 1e-15); /* failed calls changed nothing */

    /* Collider meshes. */
    const uint32_t out_of_range[6] = {0, 1, 4, 0, 2, 3};
    const uint32_t repeated[6] = {0, 1, 1, 0, 2, 3};
    double flat[12];
    square_at(-0.5, 1.5, 0.9, flat);
    flat[6] = flat[3] + 1.0; /* vertex 2 on the line through 0 and 1: triangle 0 has no area */
    flat[7] = flat[4];
    EXPECT_STATUS(grip_solver_add_collider_mesh(NULL, floor_x, 4, FLOOR_T, 2, &out), GRIP_STATUS_NULL_POINTER, "solver");
    EXPECT_STATUS(grip_solver_add_collider_mesh(s, NULL, 4, FLOOR_T, 2, &out), GRIP_STATUS_NULL_POINTER, "positions");
    EXPECT_STATUS(grip_solver_add_collider_mesh(s, floor_x, 4, NULL, 2, &out), GRIP_STATUS_NULL_POINTER, "triangles");
    EXPECT_STATUS(grip_solver_add_collider_mesh(s, floor_x, 4, FLOOR_T, 2, NULL), GRIP_STATUS_NULL_POINTER, "out_id");
    EXPECT_STATUS(grip_solver_add_collider_mesh(s, floor_x, 0, FLOOR_T, 2, &out), GRIP_STATUS_INVALID_ARGUMENT,
                  "vertex_count");
    EXPECT_STATUS(grip_solver_add_collider_mesh(s, floor_x, 4, FLOOR_T, 0, &out), GRIP_STATUS_INVALID_ARGUMENT,
                  "triangle_count");
    EXPECT_STATUS(grip_solver_add_collider_mesh(s, floor_x, 4, out_of_range, 2, &out), GRIP_STATUS_INVALID_MESH,
                  "vertex 4");
    EXPECT_STATUS(grip_solver_add_collider_mesh(s, floor_x, 4, repeated, 2, &out), GRIP_STATUS_INVALID_MESH, NULL);
    EXPECT_STATUS(grip_solver_add_collider_mesh(s, flat, 4, FLOOR_T, 2, &out), GRIP_STATUS_INVALID_MESH, "zero area");
    square_at(-0.5, 1.5, 0.9, moved);
    moved[5] = NAN;
    EXPECT_STATUS(grip_solver_add_collider_mesh(s, moved, 4, FLOOR_T, 2, &out), GRIP_STATUS_INVALID_MESH, "finite");
    EXPECT_STATUS(grip_solver_set_collider_positions(s, floor_id, moved, 4), GRIP_STATUS_INVALID_ARGUMENT, "finite");
    square_at(-0.5, 1.5, 0.9, moved);
    EXPECT_STATUS(grip_solver_set_collider_positions(s, floor_id, moved, 3), GRIP_STATUS_INVALID_ARGUMENT, "vertices");
    EXPECT_STATUS(grip_solver_set_collider_positions(s, floor_id, NULL, 4), GRIP_STATUS_NULL_POINTER, "xyz");
    EXPECT_STATUS(grip_solver_set_collider_positions(s, c, g_cloth_x, CLOTH_N), GRIP_STATUS_UNKNOWN_OBJECT,
                  "not a collider mesh");
    EXPECT_STATUS(grip_solver_set_collider_positions(s, ball, moved, 4), GRIP_STATUS_UNKNOWN_OBJECT, "collider mesh");
    EXPECT_STATUS(grip_solver_set_collider_positions(s, 99, moved, 4), GRIP_STATUS_UNKNOWN_OBJECT, "99");
    double ones[4] = {1, 1, 1, 1};
    EXPECT_STATUS(grip_solver_set_vertex_attribute(s, floor_id, "pinned", ones, 4, 1), GRIP_STATUS_INVALID_ARGUMENT,
                  "collider mesh");
    EXPECT_STATUS(grip_solver_set_vertex_attribute(s, floor_id, "velocity", moved, 4, 3), GRIP_STATUS_INVALID_ARGUMENT,
                  "collider mesh");

    /* Physics: the cloth (starting 0.1 m above the floor) falls and rests on it; the floor,
     * raised 2 cm over the last frames by the host, lifts it. */
    for (int frame = 0; frame < 30; frame++) EXPECT_OK(grip_solver_advance(s, 1.0 / 30.0));
    double x[3 * CLOTH_N];
    EXPECT_OK(grip_solver_get_positions(s, c, x, CLOTH_N));
    GripStepReport report;
    EXPECT_OK(grip_solver_get_report(s, &report));
    double lo = 1e9, hi = -1e9;
    for (int v = 0; v < CLOTH_N; v++) {
        lo = fmin(lo, x[3 * v + 2]);
        hi = fmax(hi, x[3 * v + 2]);
    }
    char detail[256];
    snprintf(detail, sizeof detail, "cloth z in [%g, %g], deepest gap %g, contacts %u", lo, hi, report.deepest_gap,
             (unsigned)report.active_contacts);
    CHECK_MSG(lo >= 0.9 && hi < 0.9 + params.contact_thickness, detail);
    CHECK_MSG(report.deepest_gap >= 0.0 && report.active_contacts >= CLOTH_N, detail);
    for (int frame = 1; frame <= 4; frame++) {
        square_at(-0.5, 1.5, 0.9 + 0.005 * frame, moved);
        EXPECT_OK(grip_solver_set_collider_positions(s, floor_id, moved, 4));
        EXPECT_OK(grip_solver_advance(s, 1.0 / 30.0));
    }
    EXPECT_OK(grip_solver_get_positions(s, c, x, CLOTH_N));
    lo = 1e9;
    for (int v = 0; v < CLOTH_N; v++) lo = fmin(lo, x[3 * v + 2]);
    snprintf(detail, sizeof detail, "lowest cloth vertex %g above the raised floor at 0.92", lo);
    CHECK_MSG(lo >= 0.92 && lo < 0.92 + params.contact_thickness, detail);
    double floor_now[12];
    EXPECT_OK(grip_solver_get_positions(s, floor_id, floor_now, 4));
    CHECK(fabs(floor_now[2] - 0.92) < 1e-12);

    grip_solver_destroy(s);
    g_watch = saved;
}
