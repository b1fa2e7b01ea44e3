/* C API test of grip: the shared scene (a cloth pinned at two corners plus a free-falling tet
 * cube) and the physics of advance, driven pins, progress and cancellation. See check.h. */

#include "check.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------ */
/* Scene                                                                                      */

double g_cloth_x[3 * CLOTH_N];
uint32_t g_cloth_t[3 * CLOTH_T];
double g_cube_x[3 * CUBE_N];
uint32_t g_cube_t[4 * CUBE_T];

/* A GRID × GRID grid, 0.5 m square, in the XY plane at z = 1. */
static void make_cloth(void) {
    for (int j = 0; j < GRID; j++) {
        for (int i = 0; i < GRID; i++) {
            double *p = &g_cloth_x[3 * (j * GRID + i)];
            p[0] = 0.5 * i / (GRID - 1);
            p[1] = 0.5 * j / (GRID - 1);
            p[2] = 1.0;
        }
    }
    uint32_t *t = g_cloth_t;
    for (int j = 0; j < GRID - 1; j++) {
        for (int i = 0; i < GRID - 1; i++) {
            uint32_t a = (uint32_t)(j * GRID + i), b = a + 1, c = a + GRID, d = c + 1;
            *t++ = a; *t++ = b; *t++ = d;
            *t++ = a; *t++ = d; *t++ = c;
        }
    }
}

double tet_det(const double *x, const uint32_t *t) {
    const double *p0 = &x[3 * t[0]], *p1 = &x[3 * t[1]], *p2 = &x[3 * t[2]], *p3 = &x[3 * t[3]];
    double a[3], b[3], c[3];
    for (int k = 0; k < 3; k++) {
        a[k] = p1[k] - p0[k];
        b[k] = p2[k] - p0[k];
        c[k] = p3[k] - p0[k];
    }
    return a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
}

/* A 0.2 m cube at (1, 0, 1) (clear of the cloth), corner v = i + 2j + 4k, split into 5 tets
 * (the centre tet 1-2-4-7 and one per even corner), each made positively oriented. */
static void make_cube(void) {
    for (int v = 0; v < CUBE_N; v++) {
        g_cube_x[3 * v + 0] = 1.0 + 0.2 * (v & 1);
        g_cube_x[3 * v + 1] = 0.0 + 0.2 * ((v >> 1) & 1);
        g_cube_x[3 * v + 2] = 1.0 + 0.2 * ((v >> 2) & 1);
    }
    static const uint32_t tets[4 * CUBE_T] = {1, 2, 4, 7, 0, 1, 2, 4, 3, 1, 2, 7, 5, 1, 4, 7, 6, 2, 4, 7};
    memcpy(g_cube_t, tets, sizeof tets);
    for (int e = 0; e < CUBE_T; e++) {
        uint32_t *t = &g_cube_t[4 * e];
        if (tet_det(g_cube_x, t) < 0) {
            uint32_t tmp = t[2];
            t[2] = t[3];
            t[3] = tmp;
        }
        CHECK(tet_det(g_cube_x, t) > 0);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Progress callbacks                                                                         */

typedef struct {
    int calls;
    int cancel_on;      /* cancel on this call (1-based); 0 never */
    int cancel_at_end;  /* cancel when fraction >= 1 */
    double last;
    int monotonic, in_range;
} Progress;

static uint32_t on_progress(void *user_data, double fraction) {
    Progress *p = (Progress *)user_data;
    p->calls++;
    if (fraction < p->last) p->monotonic = 0;
    if (!(fraction >= 0.0 && fraction <= 1.0)) p->in_range = 0;
    p->last = fraction;
    if (p->cancel_on && p->calls == p->cancel_on) return 1;
    if (p->cancel_at_end && fraction >= 1.0) return 1;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Tests                                                                                      */

void test_versions(void) {
    CHECK(grip_abi_version() == GRIP_ABI_VERSION);
    const char *v = grip_version();
    CHECK(v != NULL && v[0] != '\0' && isdigit((unsigned char)v[0]));
    CHECK(sizeof(GripSolverParams) == grip_sizeof_solver_params());
    CHECK(sizeof(GripMaterial) == grip_sizeof_material());
    CHECK(sizeof(GripStepReport) == grip_sizeof_step_report());
    if (grip_abi_version() != GRIP_ABI_VERSION || sizeof(GripSolverParams) != grip_sizeof_solver_params() ||
        sizeof(GripMaterial) != grip_sizeof_material() || sizeof(GripStepReport) != grip_sizeof_step_report()) {
        /* Passing or returning structs of the wrong size would corrupt memory: stop here. */
        printf("grip.h and the library disagree on the ABI (struct sizes %zu/%zu/%zu in the header, "
               "%zu/%zu/%zu in the library); stopping\n",
               sizeof(GripSolverParams), sizeof(GripMaterial), sizeof(GripStepReport), grip_sizeof_solver_params(),
               grip_sizeof_material(), grip_sizeof_step_report());
        printf("C API: %d passed, %d failed\n", g_passed, g_failed);
        exit(1);
    }

    GripSolverParams p = grip_solver_params_default();
    CHECK(p.struct_tag == GRIP_SOLVER_PARAMS_TAG);
    CHECK(fabs(p.time_step - 1.0 / 240.0) < 1e-15);
    CHECK(p.gravity[0] == 0.0 && p.gravity[1] == 0.0 && p.gravity[2] == -9.81);
    CHECK(p.max_newton_iterations >= 1 && p.residual_tolerance > 0 && p.residual_tolerance < 1);
    CHECK(p.linear_solver == GRIP_LINEAR_SOLVER_DIRECT_LU && p.integrator == GRIP_INTEGRATOR_BACKWARD_EULER);
    CHECK(p.collider_mesh_contact == GRIP_COLLIDER_MESH_CONTACT_EXACT);
    GripMaterial m = grip_material_default();
    CHECK(m.struct_tag == GRIP_MATERIAL_TAG);
    CHECK(m.density > 0 && m.youngs_modulus > 0 && m.thickness > 0 && m.poisson_ratio < 0.5);
    CHECK(m.membrane_model == GRIP_MEMBRANE_NEO_HOOKEAN);
}

void build_scene(void) {
    GripSolverParams p = grip_solver_params_default();
    GripMaterial m = grip_material_default();
    make_cloth();
    make_cube();

    EXPECT_OK(grip_solver_create(&p, &g_s));
    CHECK(g_s != NULL);
    if (g_s == NULL) exit(2);
    GripStepReport r;
    memset(&r, 0xAB, sizeof r);
    EXPECT_OK(grip_solver_get_report(g_s, &r));
    CHECK(r.substeps == 0 && r.converged == 0 && r.simulated_time == 0.0);

    EXPECT_OK(grip_solver_add_shell(g_s, g_cloth_x, CLOTH_N, g_cloth_t, CLOTH_T, &m, &g_cloth));
    EXPECT_OK(grip_solver_add_solid(g_s, g_cube_x, CUBE_N, g_cube_t, CUBE_T, &m, &g_cube));
    CHECK(g_cloth != 0 && g_cube != 0 && g_cloth != g_cube);

    size_t n = 0;
    EXPECT_OK(grip_solver_vertex_count(g_s, g_cloth, &n));
    CHECK(n == CLOTH_N);
    EXPECT_OK(grip_solver_vertex_count(g_s, g_cube, &n));
    CHECK(n == CUBE_N);

    double x[3 * CLOTH_N], v[3 * CLOTH_N];
    EXPECT_OK(grip_solver_get_positions(g_s, g_cloth, x, CLOTH_N));
    CHECK(memcmp(x, g_cloth_x, sizeof g_cloth_x) == 0);
    EXPECT_OK(grip_solver_get_positions(g_s, g_cube, x, CUBE_N));
    CHECK(memcmp(x, g_cube_x, sizeof g_cube_x) == 0);
    EXPECT_OK(grip_solver_get_velocities(g_s, g_cloth, v, CLOTH_N));
    int zero = 1;
    for (int i = 0; i < 3 * CLOTH_N; i++) zero &= v[i] == 0.0;
    CHECK(zero);

    double pinned[CLOTH_N] = {0};
    pinned[PIN_A] = 1.0;
    pinned[PIN_B] = 1.0;
    EXPECT_OK(grip_solver_set_vertex_attribute(g_s, g_cloth, "pinned", pinned, CLOTH_N, 1));

    g_watch.solver = g_s;
    g_watch.object_count = 2;
    g_watch.ids[0] = g_cloth;
    g_watch.vertex_counts[0] = CLOTH_N;
    g_watch.ids[1] = g_cube;
    g_watch.vertex_counts[1] = CUBE_N;
    watch_snapshot();
}

static double centroid_z(const double *x, int n) {
    double z = 0;
    for (int v = 0; v < n; v++) z += x[3 * v + 2];
    return z / n;
}

void test_fall(void) {
    const double t = 0.25;
    GripSolverParams p = grip_solver_params_default();
    double cloth[3 * CLOTH_N], cube[3 * CUBE_N];

    EXPECT_OK(grip_solver_advance(g_s, t));
    EXPECT_OK(grip_solver_get_positions(g_s, g_cloth, cloth, CLOTH_N));
    EXPECT_OK(grip_solver_get_positions(g_s, g_cube, cube, CUBE_N));
    CHECK(all_finite(cloth, 3 * CLOTH_N) && all_finite(cube, 3 * CUBE_N));

    for (int k = 0; k < 3; k++) {
        CHECK(fabs(cloth[3 * PIN_A + k] - g_cloth_x[3 * PIN_A + k]) <= 1e-9);
        CHECK(fabs(cloth[3 * PIN_B + k] - g_cloth_x[3 * PIN_B + k]) <= 1e-9);
    }
    int down = 1;
    double lowest = 1.0;
    for (int v = 0; v < CLOTH_N; v++) {
        if (v == PIN_A || v == PIN_B) continue;
        down &= cloth[3 * v + 2] < 1.0 - 1e-6;
        if (cloth[3 * v + 2] < lowest) lowest = cloth[3 * v + 2];
    }
    CHECK(down);
    CHECK(lowest < 0.9); /* the far edge swings down by decimetres in 0.25 s */

    /* Free fall of the cube: ½ g t² (backward Euler adds a factor 1 + 1/n). */
    double drop = centroid_z(g_cube_x, CUBE_N) - centroid_z(cube, CUBE_N);
    double expected = 0.5 * 9.81 * t * t;
    char msg[128];
    snprintf(msg, sizeof msg, "cube dropped %.6f m, expected about %.6f m", drop, expected);
    CHECK_MSG(fabs(drop - expected) <= 0.1 * expected, msg);
    /* The cube falls rigidly: every vertex by the same amount, x and y unchanged. */
    int rigid = 1;
    for (int v = 0; v < CUBE_N; v++) {
        rigid &= fabs(g_cube_x[3 * v + 2] - cube[3 * v + 2] - drop) < 1e-6;
        rigid &= fabs(g_cube_x[3 * v] - cube[3 * v]) < 1e-9 && fabs(g_cube_x[3 * v + 1] - cube[3 * v + 1]) < 1e-9;
    }
    CHECK(rigid);

    double vel[3 * CUBE_N];
    EXPECT_OK(grip_solver_get_velocities(g_s, g_cube, vel, CUBE_N));
    CHECK(fabs(vel[2] + 9.81 * t) < 1e-6 * 9.81 * t + 1e-9); /* BE velocity is exactly −g t */

    GripStepReport r;
    EXPECT_OK(grip_solver_get_report(g_s, &r));
    uint32_t substeps = (uint32_t)ceil(t / p.time_step - 1e-9);
    snprintf(msg, sizeof msg, "report: substeps %u (want %u), converged %u, simulated_time %g", r.substeps, substeps,
             r.converged, r.simulated_time);
    CHECK_MSG(r.substeps == substeps, msg);
    CHECK_MSG(r.converged == 1, msg);
    CHECK_MSG(fabs(r.simulated_time - t) < 1e-12, msg);
    CHECK(r.pinned_vertices == 2);
    CHECK(r.newton_iterations >= r.substeps && r.max_substep_iterations >= 1);
    CHECK(r.max_substep_iterations <= p.max_newton_iterations);
    CHECK(isfinite(r.residual) && r.residual >= 0 && isfinite(r.residual_abs) && r.residual_abs >= 0);
    CHECK(r.kinetic_energy > 0 && isfinite(r.elastic_energy) && r.elastic_energy >= 0);
    CHECK(r.seconds_total > 0 && r.seconds_total >= r.seconds_factorization);

    /* One explicit step. */
    EXPECT_OK(grip_solver_step(g_s, 1.0 / 240.0));
    EXPECT_OK(grip_solver_get_report(g_s, &r));
    CHECK(r.substeps == 1 && r.converged == 1 && fabs(r.simulated_time - 1.0 / 240.0) < 1e-15);
    watch_snapshot();
}

void test_driven_pin(void) {
    double x[3 * CLOTH_N], target[3 * CLOTH_N], after[3 * CLOTH_N];
    EXPECT_OK(grip_solver_get_positions(g_s, g_cloth, x, CLOTH_N));
    memcpy(target, x, sizeof x);
    target[3 * PIN_A] += 0.1;
    target[3 * PIN_B] += 0.1;
    /* Targets of unpinned vertices are ignored: give them nonsense-but-finite values. */
    target[3 * 10 + 2] = 50.0;
    EXPECT_OK(grip_solver_set_vertex_attribute(g_s, g_cloth, "target", target, CLOTH_N, 3));
    EXPECT_OK(grip_solver_advance(g_s, 0.1));
    EXPECT_OK(grip_solver_get_positions(g_s, g_cloth, after, CLOTH_N));
    for (int k = 0; k < 3; k++) {
        CHECK(fabs(after[3 * PIN_A + k] - target[3 * PIN_A + k]) <= 1e-9);
        CHECK(fabs(after[3 * PIN_B + k] - target[3 * PIN_B + k]) <= 1e-9);
    }
    CHECK(after[3 * 10 + 2] < x[3 * 10 + 2] + 0.5);
    /* Targets are consumed: the next advance holds the pins where they are. */
    EXPECT_OK(grip_solver_advance(g_s, 1.0 / 30.0));
    EXPECT_OK(grip_solver_get_positions(g_s, g_cloth, x, CLOTH_N));
    for (int k = 0; k < 3; k++) {
        CHECK(fabs(x[3 * PIN_A + k] - target[3 * PIN_A + k]) <= 1e-9);
        CHECK(fabs(x[3 * PIN_B + k] - target[3 * PIN_B + k]) <= 1e-9);
    }
    watch_snapshot();
}

void test_progress(void) {
    Progress pr = {0, 2, 0, 0.0, 1, 1};
    GripStepReport r;
    double target[3 * CLOTH_N], x[3 * CLOTH_N];

    /* A pending target must survive a cancelled advance (the solver is as it was). */
    EXPECT_OK(grip_solver_get_positions(g_s, g_cloth, target, CLOTH_N));
    target[3 * PIN_A + 1] -= 0.05;
    target[3 * PIN_B + 1] -= 0.05;
    EXPECT_OK(grip_solver_set_vertex_attribute(g_s, g_cloth, "target", target, CLOTH_N, 3));
    watch_snapshot();

    EXPECT_OK(grip_solver_set_progress_callback(g_s, on_progress, &pr));
    EXPECT_STATUS(grip_solver_advance(g_s, 0.1), GRIP_STATUS_CANCELLED, "cancel");
    CHECK(pr.calls == 2);
    CHECK(pr.in_range && pr.monotonic);
    EXPECT_OK(grip_solver_get_report(g_s, &r));
    CHECK(r.converged == 0);

    /* Cancel on the very first call, from step. */
    pr.calls = 0;
    pr.cancel_on = 1;
    EXPECT_STATUS(grip_solver_step(g_s, 1.0 / 240.0), GRIP_STATUS_CANCELLED, "cancel");
    CHECK(pr.calls == 1);

    /* Never cancelling: fractions in [0, 1], nondecreasing, ending at 1. */
    Progress all = {0, 0, 0, 0.0, 1, 1};
    EXPECT_OK(grip_solver_set_progress_callback(g_s, on_progress, &all));
    EXPECT_OK(grip_solver_advance(g_s, 0.05));
    CHECK(all.calls >= 12 && all.in_range && all.monotonic && all.last == 1.0);
    EXPECT_OK(grip_solver_get_positions(g_s, g_cloth, x, CLOTH_N));
    CHECK(fabs(x[3 * PIN_A + 1] - target[3 * PIN_A + 1]) <= 1e-9); /* target kept through the cancels */
    CHECK(fabs(x[3 * PIN_B + 1] - target[3 * PIN_B + 1]) <= 1e-9);
    watch_snapshot();

    /* A cancel requested at fraction 1.0 (after the last substep) still rolls back. */
    Progress late = {0, 0, 1, 0.0, 1, 1};
    EXPECT_OK(grip_solver_set_progress_callback(g_s, on_progress, &late));
    EXPECT_STATUS(grip_solver_advance(g_s, 1.0 / 60.0), GRIP_STATUS_CANCELLED, "cancel");
    CHECK(late.last == 1.0);
    CHECK(watch_unchanged());
    watch_snapshot();

    EXPECT_OK(grip_solver_set_progress_callback(g_s, NULL, NULL));
    int before = late.calls;
    EXPECT_OK(grip_solver_advance(g_s, 1.0 / 60.0));
    CHECK(late.calls == before);
    watch_snapshot();
    EXPECT_STATUS(grip_solver_set_progress_callback(NULL, on_progress, &pr), GRIP_STATUS_NULL_POINTER, "solver");
    EXPECT_STATUS(grip_solver_set_progress_callback(NULL, NULL, NULL), GRIP_STATUS_NULL_POINTER, "solver");
    CHECK_USABLE();
}

/* Newton failing (one iteration allowed, no velocity stop) leaves the solver unchanged. */
void test_not_converged(void) {
    GripSolverParams p = grip_solver_params_default();
    p.max_newton_iterations = 1;
    p.velocity_tolerance = 0.0;
    p.residual_tolerance = 1e-14;
    GripSolver *t = NULL;
    GripObjectId id = 0;
    GripMaterial m = grip_material_default();
    EXPECT_OK(grip_solver_create(&p, &t));
    EXPECT_OK(grip_solver_add_shell(t, g_cloth_x, CLOTH_N, g_cloth_t, CLOTH_T, &m, &id));
    double pinned[CLOTH_N] = {0};
    pinned[PIN_A] = pinned[PIN_B] = 1.0;
    EXPECT_OK(grip_solver_set_vertex_attribute(t, id, "pinned", pinned, CLOTH_N, 1));
    double x0[3 * CLOTH_N], x1[3 * CLOTH_N];
    EXPECT_OK(grip_solver_get_positions(t, id, x0, CLOTH_N));
    /* Stretch the cloth so the first Newton step cannot be exact. */
    double stretched[3 * CLOTH_N];
    for (int i = 0; i < 3 * CLOTH_N; i++) stretched[i] = x0[i] * (i % 3 == 0 ? 1.3 : 1.0);
    EXPECT_OK(grip_solver_set_vertex_attribute(t, id, "position", stretched, CLOTH_N, 3));
    EXPECT_STATUS(grip_solver_advance(t, 0.05), GRIP_STATUS_NOT_CONVERGED, "converge");
    EXPECT_OK(grip_solver_get_positions(t, id, x1, CLOTH_N));
    CHECK(memcmp(stretched, x1, sizeof x1) == 0);
    GripStepReport r;
    EXPECT_OK(grip_solver_get_report(t, &r));
    CHECK(r.converged == 0 && r.newton_iterations >= 1);
    grip_solver_destroy(t);
}

/* A solver without objects steps trivially. */
void test_empty_solver(void) {
    GripSolverParams p = grip_solver_params_default();
    GripSolver *t = NULL;
    EXPECT_OK(grip_solver_create(&p, &t));
    EXPECT_OK(grip_solver_advance(t, 0.1));
    EXPECT_OK(grip_solver_step(t, 0.01));
    size_t n = 0;
    EXPECT_STATUS(grip_solver_vertex_count(t, 1, &n), GRIP_STATUS_UNKNOWN_OBJECT, "no object");
    grip_solver_destroy(t);
}
