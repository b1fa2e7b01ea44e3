/* C API test of grip: error paths of calls on an existing solver (vertex attributes, queries,
 * steps), destroyed and foreign handles, and misaligned output pointers. See check.h. */

#include "check.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

void test_attribute_errors(void) {
    double vals[3 * CLOTH_N + 1];
    double ones[CLOTH_N];
    const size_t N = CLOTH_N;
    for (int v = 0; v < CLOTH_N; v++) ones[v] = 1.0;
    EXPECT_OK(grip_solver_get_positions(g_s, g_cloth, vals, N));

#define SET_ATTR(id, name, values, n, comps) grip_solver_set_vertex_attribute(g_s, (id), (name), (values), (n), (comps))

    EXPECT_STATUS(grip_solver_set_vertex_attribute(NULL, g_cloth, "position", vals, N, 3), GRIP_STATUS_NULL_POINTER,
                  "solver");
    EXPECT_STATUS(SET_ATTR(g_cloth, NULL, vals, N, 3), GRIP_STATUS_NULL_POINTER, "name");
    EXPECT_STATUS(SET_ATTR(g_cloth, "position", NULL, N, 3), GRIP_STATUS_NULL_POINTER, "values");
    EXPECT_STATUS(SET_ATTR(g_cloth, "pinned", NULL, N, 1), GRIP_STATUS_NULL_POINTER, "values");

    EXPECT_STATUS(SET_ATTR(g_cloth, "position", vals, 0, 3), GRIP_STATUS_INVALID_ARGUMENT, "vertex_count");
    EXPECT_STATUS(SET_ATTR(g_cloth, "position", NULL, 0, 3), GRIP_STATUS_INVALID_ARGUMENT, "vertex_count");
    EXPECT_STATUS(SET_ATTR(g_cloth, "position", vals, N, 0), GRIP_STATUS_INVALID_ARGUMENT, "components");
    EXPECT_STATUS(SET_ATTR(g_cloth, "position", vals, N, 17), GRIP_STATUS_INVALID_ARGUMENT, "components");
    EXPECT_STATUS(SET_ATTR(g_cloth, "position", vals, SIZE_MAX, 3), GRIP_STATUS_INVALID_ARGUMENT, "too large");
    EXPECT_STATUS(SET_ATTR(g_cloth, "position", vals, SIZE_MAX / 16, 3), GRIP_STATUS_INVALID_ARGUMENT, "too large");
    EXPECT_STATUS(SET_ATTR(g_cloth, "position", (const double *)(uintptr_t)((uintptr_t)vals + 4), N, 3),
                  GRIP_STATUS_INVALID_ARGUMENT, "aligned");

    EXPECT_STATUS(SET_ATTR(g_cloth, "colour", vals, N, 3), GRIP_STATUS_INVALID_ARGUMENT, "unknown vertex attribute");
    EXPECT_STATUS(SET_ATTR(g_cloth, "", vals, N, 3), GRIP_STATUS_INVALID_ARGUMENT, "unknown vertex attribute");
    EXPECT_STATUS(SET_ATTR(g_cloth, "Position", vals, N, 3), GRIP_STATUS_INVALID_ARGUMENT, "unknown vertex attribute");
    EXPECT_STATUS(SET_ATTR(g_cloth, "position ", vals, N, 3), GRIP_STATUS_INVALID_ARGUMENT, "unknown vertex attribute");
    EXPECT_STATUS(SET_ATTR(g_cloth, "\xff\xfe", vals, N, 3), GRIP_STATUS_INVALID_ARGUMENT, "UTF-8");

    EXPECT_STATUS(SET_ATTR(g_cloth, "pinned", vals, N, 3), GRIP_STATUS_INVALID_ARGUMENT, "components");
    EXPECT_STATUS(SET_ATTR(g_cloth, "velocity", vals, N, 1), GRIP_STATUS_INVALID_ARGUMENT, "components");
    EXPECT_STATUS(SET_ATTR(g_cloth, "position", vals, N, 2), GRIP_STATUS_INVALID_ARGUMENT, "components");
    EXPECT_STATUS(SET_ATTR(g_cloth, "target", vals, N, 4), GRIP_STATUS_INVALID_ARGUMENT, "components");

    EXPECT_STATUS(SET_ATTR(g_cloth, "position", vals, N - 1, 3), GRIP_STATUS_INVALID_ARGUMENT, "vertices");
    EXPECT_STATUS(SET_ATTR(g_cloth, "position", vals, N + 1, 3), GRIP_STATUS_INVALID_ARGUMENT, "vertices");
    EXPECT_STATUS(SET_ATTR(g_cloth, "pinned", ones, N - 1, 1), GRIP_STATUS_INVALID_ARGUMENT, "vertices");
    EXPECT_STATUS(SET_ATTR(g_cube, "velocity", vals, N, 3), GRIP_STATUS_INVALID_ARGUMENT, "vertices");

    EXPECT_STATUS(SET_ATTR(0, "position", vals, N, 3), GRIP_STATUS_UNKNOWN_OBJECT, "no object");
    EXPECT_STATUS(SET_ATTR(999, "position", vals, N, 3), GRIP_STATUS_UNKNOWN_OBJECT, "no object");
    EXPECT_STATUS(SET_ATTR(UINT32_MAX, "pinned", ones, N, 1), GRIP_STATUS_UNKNOWN_OBJECT, "no object");

    /* Non-finite values: nothing may be half-applied (the last vertex is the bad one). */
    static const char *const names[] = {"velocity", "position", "target"};
    static const double bad_values[] = {NAN, INFINITY, -INFINITY};
    for (int a = 0; a < 3; a++) {
        for (int b = 0; b < 3; b++) {
            double w[3 * CLOTH_N];
            char what[128];
            for (int i = 0; i < 3 * CLOTH_N; i++) w[i] = vals[i] + 0.25; /* moves the pins if applied */
            w[3 * CLOTH_N - 1 - b] = bad_values[b];
            snprintf(what, sizeof what, "set \"%s\" with a %g", names[a], bad_values[b]);
            expect_status(__FILE__, __LINE__, what, SET_ATTR(g_cloth, names[a], w, N, 3), GRIP_STATUS_INVALID_ARGUMENT,
                          "not finite");
        }
    }
    ones[CLOTH_N - 1] = NAN; /* would pin everything if applied */
    EXPECT_STATUS(SET_ATTR(g_cloth, "pinned", ones, N, 1), GRIP_STATUS_INVALID_ARGUMENT, "not finite");
    ones[CLOTH_N - 1] = INFINITY;
    EXPECT_STATUS(SET_ATTR(g_cloth, "pinned", ones, N, 1), GRIP_STATUS_INVALID_ARGUMENT, "not finite");

    /* Successful sets clear the message; setting the current position is a no-op. */
    EXPECT_OK(SET_ATTR(g_cloth, "position", vals, N, 3));
    CHECK(watch_unchanged());
    CHECK_USABLE();

    /* "position" and "velocity" really move the cube (then are put back). */
    double cube[3 * CUBE_N], moved[3 * CUBE_N], got[3 * CUBE_N], vel[3 * CUBE_N];
    EXPECT_OK(grip_solver_get_positions(g_s, g_cube, cube, CUBE_N));
    EXPECT_OK(grip_solver_get_velocities(g_s, g_cube, vel, CUBE_N));
    for (int i = 0; i < 3 * CUBE_N; i++) moved[i] = cube[i] + (i % 3 == 1 ? 0.05 : 0.0);
    EXPECT_OK(SET_ATTR(g_cube, "position", moved, CUBE_N, 3));
    EXPECT_OK(grip_solver_get_positions(g_s, g_cube, got, CUBE_N));
    CHECK(memcmp(got, moved, sizeof got) == 0);
    EXPECT_OK(SET_ATTR(g_cube, "position", cube, CUBE_N, 3));
    double v2[3 * CUBE_N];
    for (int i = 0; i < 3 * CUBE_N; i++) v2[i] = vel[i] + 1.0;
    EXPECT_OK(SET_ATTR(g_cube, "velocity", v2, CUBE_N, 3));
    EXPECT_OK(grip_solver_get_velocities(g_s, g_cube, got, CUBE_N));
    CHECK(memcmp(got, v2, sizeof got) == 0);
    EXPECT_OK(SET_ATTR(g_cube, "velocity", vel, CUBE_N, 3));
    CHECK(watch_unchanged());
#undef SET_ATTR
}

void test_query_errors(void) {
    double out[3 * CLOTH_N + 3];
    size_t count = 77;
    GripStepReport r;

    EXPECT_STATUS(grip_solver_vertex_count(NULL, g_cloth, &count), GRIP_STATUS_NULL_POINTER, "solver");
    EXPECT_STATUS(grip_solver_vertex_count(g_s, g_cloth, NULL), GRIP_STATUS_NULL_POINTER, "out_count");
    EXPECT_STATUS(grip_solver_vertex_count(g_s, 0, &count), GRIP_STATUS_UNKNOWN_OBJECT, "no object");
    EXPECT_STATUS(grip_solver_vertex_count(g_s, 999, &count), GRIP_STATUS_UNKNOWN_OBJECT, "no object");
    CHECK(count == 77);

    typedef GripStatus (*Getter)(const GripSolver *, GripObjectId, double *, size_t);
    static const Getter getters[2] = {grip_solver_get_positions, grip_solver_get_velocities};
    for (int g = 0; g < 2; g++) {
        Getter get = getters[g];
        for (int i = 0; i < 3 * CLOTH_N + 3; i++) out[i] = -12345.0;
        EXPECT_STATUS(get(NULL, g_cloth, out, CLOTH_N), GRIP_STATUS_NULL_POINTER, "solver");
        EXPECT_STATUS(get(g_s, g_cloth, NULL, CLOTH_N), GRIP_STATUS_NULL_POINTER, "out_xyz");
        EXPECT_STATUS(get(g_s, 0, out, CLOTH_N), GRIP_STATUS_UNKNOWN_OBJECT, "no object");
        EXPECT_STATUS(get(g_s, 999, out, CLOTH_N), GRIP_STATUS_UNKNOWN_OBJECT, "no object");
        EXPECT_STATUS(get(g_s, g_cloth, out, 0), GRIP_STATUS_INVALID_ARGUMENT, "vertex_count");
        EXPECT_STATUS(get(g_s, g_cloth, NULL, 0), GRIP_STATUS_INVALID_ARGUMENT, "vertex_count");
        EXPECT_STATUS(get(g_s, g_cloth, out, CLOTH_N - 1), GRIP_STATUS_INVALID_ARGUMENT, "vertices");
        EXPECT_STATUS(get(g_s, g_cloth, out, CLOTH_N + 1), GRIP_STATUS_INVALID_ARGUMENT, "vertices");
        EXPECT_STATUS(get(g_s, g_cube, out, CLOTH_N), GRIP_STATUS_INVALID_ARGUMENT, "vertices");
        EXPECT_STATUS(get(g_s, g_cloth, out, SIZE_MAX), GRIP_STATUS_INVALID_ARGUMENT, "too large");
        EXPECT_STATUS(get(g_s, g_cloth, out, SIZE_MAX / 8), GRIP_STATUS_INVALID_ARGUMENT, "too large");
        EXPECT_STATUS(get(g_s, g_cloth, (double *)(uintptr_t)((uintptr_t)out + 3), CLOTH_N),
                      GRIP_STATUS_INVALID_ARGUMENT, "aligned");
        int untouched = 1;
        for (int i = 0; i < 3 * CLOTH_N + 3; i++) untouched &= out[i] == -12345.0;
        CHECK(untouched); /* failing getters write nothing */
    }

    EXPECT_STATUS(grip_solver_get_report(NULL, &r), GRIP_STATUS_NULL_POINTER, "solver");
    EXPECT_STATUS(grip_solver_get_report(g_s, NULL), GRIP_STATUS_NULL_POINTER, "out");
    EXPECT_STATUS(grip_solver_get_report(g_s, (GripStepReport *)(uintptr_t)((uintptr_t)&r + 1)),
                  GRIP_STATUS_INVALID_ARGUMENT, "aligned");
    CHECK_USABLE();
}

void test_step_errors(void) {
    GripStepReport before, after;
    EXPECT_OK(grip_solver_get_report(g_s, &before));

    EXPECT_STATUS(grip_solver_step(NULL, 0.01), GRIP_STATUS_NULL_POINTER, "solver");
    EXPECT_STATUS(grip_solver_advance(NULL, 0.01), GRIP_STATUS_NULL_POINTER, "solver");
    static const double bad[] = {0.0, -0.0, -0.01, NAN, -NAN, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char what[96];
        snprintf(what, sizeof what, "grip_solver_step(s, %g)", bad[i]);
        expect_status(__FILE__, __LINE__, what, grip_solver_step(g_s, bad[i]), GRIP_STATUS_INVALID_ARGUMENT, "dt");
        snprintf(what, sizeof what, "grip_solver_advance(s, %g)", bad[i]);
        expect_status(__FILE__, __LINE__, what, grip_solver_advance(g_s, bad[i]), GRIP_STATUS_INVALID_ARGUMENT,
                      "duration");
    }
    /* More substeps than the limit. */
    EXPECT_STATUS(grip_solver_advance(g_s, 1e7), GRIP_STATUS_INVALID_ARGUMENT, "substeps");
    EXPECT_STATUS(grip_solver_advance(g_s, DBL_MAX), GRIP_STATUS_INVALID_ARGUMENT, "substeps");
    /* Argument errors are refused before stepping: the report is untouched. */
    EXPECT_OK(grip_solver_get_report(g_s, &after));
    CHECK(memcmp(&before, &after, sizeof before) == 0);
    /* A valid but absurd dt: Newton fails (non-finite residual) and the solver is rolled back. */
    EXPECT_STATUS(grip_solver_step(g_s, 1e300), GRIP_STATUS_NOT_CONVERGED, "not finite");
    EXPECT_OK(grip_solver_get_report(g_s, &after));
    CHECK(after.converged == 0);
    CHECK_USABLE();
}

/* Destroyed, foreign and twice-destroyed handles. */
void test_handles(void) {
    GripSolverParams p = grip_solver_params_default();
    GripSolver *t = NULL;
    GripObjectId id = 0;
    GripMaterial m = grip_material_default();
    double x[3 * CLOTH_N];
    size_t n = 0;
    GripStepReport r;
    double pinned[CLOTH_N] = {0};

    grip_solver_destroy(NULL); /* fine */
    EXPECT_OK(grip_solver_create(&p, &t));
    EXPECT_OK(grip_solver_add_shell(t, g_cloth_x, CLOTH_N, g_cloth_t, CLOTH_T, &m, &id));
    grip_solver_destroy(t);
    /* No grip_solver_create in between, so the address cannot have been handed out again. */
    EXPECT_STATUS(grip_solver_step(t, 0.01), GRIP_STATUS_INVALID_ARGUMENT, "live handle");
    EXPECT_STATUS(grip_solver_advance(t, 0.01), GRIP_STATUS_INVALID_ARGUMENT, "live handle");
    EXPECT_STATUS(grip_solver_add_shell(t, g_cloth_x, CLOTH_N, g_cloth_t, CLOTH_T, &m, &id),
                  GRIP_STATUS_INVALID_ARGUMENT, "live handle");
    EXPECT_STATUS(grip_solver_add_solid(t, g_cube_x, CUBE_N, g_cube_t, CUBE_T, &m, &id), GRIP_STATUS_INVALID_ARGUMENT,
                  "live handle");
    EXPECT_STATUS(grip_solver_set_vertex_attribute(t, id, "pinned", pinned, CLOTH_N, 1), GRIP_STATUS_INVALID_ARGUMENT,
                  "live handle");
    EXPECT_STATUS(grip_solver_vertex_count(t, id, &n), GRIP_STATUS_INVALID_ARGUMENT, "live handle");
    EXPECT_STATUS(grip_solver_get_positions(t, id, x, CLOTH_N), GRIP_STATUS_INVALID_ARGUMENT, "live handle");
    EXPECT_STATUS(grip_solver_get_velocities(t, id, x, CLOTH_N), GRIP_STATUS_INVALID_ARGUMENT, "live handle");
    EXPECT_STATUS(grip_solver_get_report(t, &r), GRIP_STATUS_INVALID_ARGUMENT, "live handle");
    EXPECT_STATUS(grip_solver_set_progress_callback(t, NULL, NULL), GRIP_STATUS_INVALID_ARGUMENT, "live handle");
    grip_solver_destroy(t); /* twice: detected and ignored */
    CHECK(grip_last_error() != NULL);

    /* A pointer that never came from grip_solver_create. */
    double not_a_solver[64] = {0};
    GripSolver *foreign = (GripSolver *)(void *)not_a_solver;
    EXPECT_STATUS(grip_solver_advance(foreign, 0.01), GRIP_STATUS_INVALID_ARGUMENT, "live handle");
    EXPECT_STATUS(grip_solver_get_report(foreign, &r), GRIP_STATUS_INVALID_ARGUMENT, "live handle");
    grip_solver_destroy(foreign); /* ignored */
    CHECK(not_a_solver[0] == 0.0 && not_a_solver[63] == 0.0);

    /* Address reuse (informational): a stale handle equal to a new one would act on it. */
    GripSolver *a = NULL, *b = NULL;
    EXPECT_OK(grip_solver_create(&p, &a));
    grip_solver_destroy(a);
    EXPECT_OK(grip_solver_create(&p, &b));
    if (a == b) printf("NOTE: a destroyed handle's address was reused by the next grip_solver_create\n");
    grip_solver_destroy(b);
    CHECK_USABLE();
}

/* Misaligned output pointers are refused, and a refused add must not add the object (which the
 * host could then never address). Uses a scratch solver so a leaked object cannot disturb the
 * main scene. */
void test_misaligned_outputs(void) {
    GripSolverParams p = grip_solver_params_default();
    GripMaterial m = grip_material_default();
    GripSolver *t = NULL;
    uint64_t storage[4] = {0, 0, 0, 0};
    void *odd = (void *)(uintptr_t)((uintptr_t)storage + 1);
    size_t n = 0;

    EXPECT_STATUS(grip_solver_create(&p, (GripSolver **)odd), GRIP_STATUS_INVALID_ARGUMENT, "aligned");
    EXPECT_OK(grip_solver_create(&p, &t));
    EXPECT_STATUS(grip_solver_vertex_count(t, 1, (size_t *)odd), GRIP_STATUS_INVALID_ARGUMENT, "aligned");

    EXPECT_STATUS(grip_solver_add_solid(t, g_cube_x, CUBE_N, g_cube_t, CUBE_T, &m, (GripObjectId *)odd),
                  GRIP_STATUS_INVALID_ARGUMENT, "aligned");
    EXPECT_STATUS(grip_solver_vertex_count(t, 1, &n), GRIP_STATUS_UNKNOWN_OBJECT, "no object");
    EXPECT_STATUS(grip_solver_add_shell(t, g_cloth_x, CLOTH_N, g_cloth_t, CLOTH_T, &m, (GripObjectId *)odd),
                  GRIP_STATUS_INVALID_ARGUMENT, "aligned");
    EXPECT_STATUS(grip_solver_vertex_count(t, 1, &n), GRIP_STATUS_UNKNOWN_OBJECT, "no object");
    EXPECT_STATUS(grip_solver_vertex_count(t, 2, &n), GRIP_STATUS_UNKNOWN_OBJECT, "no object");

    GripObjectId id = 0;
    EXPECT_OK(grip_solver_add_solid(t, g_cube_x, CUBE_N, g_cube_t, CUBE_T, &m, &id));
    EXPECT_STATUS(grip_solver_vertex_count(t, id, (size_t *)odd), GRIP_STATUS_INVALID_ARGUMENT, "aligned");
    grip_solver_destroy(t);
}
