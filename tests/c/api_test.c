/* C API test of grip (include/grip.h), built and run by tests/c_api.rs.
 *
 * Builds a cloth pinned at two corners plus a free-falling tet cube, checks the physics of
 * advance, driven pins and cancellation, then walks every error path of the C API: each failing
 * call must return its specific status, leave a non-empty grip_last_error() naming the problem,
 * and leave the solver unchanged (positions and velocities compared with memcmp after every
 * failing call; a group ends with an advance that must still succeed).
 *
 * Prints "C API: N passed, M failed" and exits nonzero if any check failed. */

#include "grip.h"

#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------ */
/* Check bookkeeping                                                                          */

static int g_passed = 0;
static int g_failed = 0;

static void record(int ok, const char *file, int line, const char *what, const char *detail) {
    if (ok) {
        g_passed++;
    } else {
        g_failed++;
        printf("%s:%d: FAILED: %s%s%s\n", file, line, what, detail ? " -- " : "", detail ? detail : "");
    }
}

#define CHECK(cond) record((cond) ? 1 : 0, __FILE__, __LINE__, #cond, NULL)
#define CHECK_MSG(cond, msg) record((cond) ? 1 : 0, __FILE__, __LINE__, #cond, (msg))

/* Case-insensitive substring search. */
static int contains_ci(const char *hay, const char *needle) {
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i])) i++;
        if (i == n) return 1;
    }
    return n == 0;
}

/* ------------------------------------------------------------------------------------------ */
/* The watched solver: positions and velocities of every object, compared after failing calls */

#define MAX_WATCH_OBJECTS 4
#define MAX_WATCH_VERTICES 64

static struct {
    GripSolver *solver;
    int object_count;
    GripObjectId ids[MAX_WATCH_OBJECTS];
    size_t vertex_counts[MAX_WATCH_OBJECTS];
    double positions[MAX_WATCH_OBJECTS][3 * MAX_WATCH_VERTICES];
    double velocities[MAX_WATCH_OBJECTS][3 * MAX_WATCH_VERTICES];
} g_watch;

static void watch_snapshot(void) {
    for (int o = 0; o < g_watch.object_count; o++) {
        size_t n = g_watch.vertex_counts[o];
        if (grip_solver_get_positions(g_watch.solver, g_watch.ids[o], g_watch.positions[o], n) != GRIP_STATUS_OK ||
            grip_solver_get_velocities(g_watch.solver, g_watch.ids[o], g_watch.velocities[o], n) != GRIP_STATUS_OK) {
            fprintf(stderr, "watch_snapshot: cannot read object %u: %s\n", g_watch.ids[o], grip_last_error());
            exit(2);
        }
    }
}

/* 1 if the watched solver's positions and velocities are bit-identical to the snapshot. */
static int watch_unchanged(void) {
    double buf[3 * MAX_WATCH_VERTICES];
    for (int o = 0; o < g_watch.object_count; o++) {
        size_t n = g_watch.vertex_counts[o];
        if (grip_solver_get_positions(g_watch.solver, g_watch.ids[o], buf, n) != GRIP_STATUS_OK) return 0;
        if (memcmp(buf, g_watch.positions[o], 3 * n * sizeof(double)) != 0) return 0;
        if (grip_solver_get_velocities(g_watch.solver, g_watch.ids[o], buf, n) != GRIP_STATUS_OK) return 0;
        if (memcmp(buf, g_watch.velocities[o], 3 * n * sizeof(double)) != 0) return 0;
    }
    return 1;
}

/* Checks a call's status and message; after a failing call also that the watched solver is
 * unchanged. `substring` (case-insensitive) must occur in the message; NULL skips that. */
static void expect_status(const char *file, int line, const char *expr, GripStatus got, GripStatus want,
                          const char *substring) {
    char detail[1024];
    const char *raw = grip_last_error();
    char message[768];
    snprintf(message, sizeof message, "%s", raw ? raw : "(NULL)");
    int ok = raw != NULL && got == want;
    if (want == GRIP_STATUS_OK) {
        ok = ok && message[0] == '\0';
    } else {
        ok = ok && message[0] != '\0' && (substring == NULL || contains_ci(message, substring));
    }
    snprintf(detail, sizeof detail, "status %u (want %u), last_error \"%s\"%s%s%s", (unsigned)got, (unsigned)want,
             message, substring ? " (want it to contain \"" : "", substring ? substring : "", substring ? "\")" : "");
    record(ok, file, line, expr, detail);
    if (want != GRIP_STATUS_OK && g_watch.solver != NULL) {
        record(watch_unchanged(), file, line, expr, "solver state changed by a failing call");
    }
}

#define EXPECT_STATUS(call, want, substring) \
    expect_status(__FILE__, __LINE__, #call, (GripStatus)(call), (GripStatus)(want), (substring))
#define EXPECT_OK(call) EXPECT_STATUS(call, GRIP_STATUS_OK, NULL)

/* ------------------------------------------------------------------------------------------ */
/* Scene                                                                                      */

#define GRID 6                     /* cloth vertices per side */
#define CLOTH_N (GRID * GRID)      /* 36 vertices */
#define CLOTH_T (2 * (GRID - 1) * (GRID - 1)) /* 50 triangles */
#define PIN_A 0                    /* corner (0, 0) */
#define PIN_B (GRID - 1)           /* corner (0.5, 0) */
#define CUBE_N 8
#define CUBE_T 5

static double g_cloth_x[3 * CLOTH_N];
static uint32_t g_cloth_t[3 * CLOTH_T];
static double g_cube_x[3 * CUBE_N];
static uint32_t g_cube_t[4 * CUBE_T];

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

static double tet_det(const double *x, const uint32_t *t) {
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

static int all_finite(const double *x, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}

static GripSolver *g_s;            /* the main solver */
static GripObjectId g_cloth, g_cube;

/* The group-end check: an advance still succeeds, stays finite, keeps the pins put (so no
 * failing call half-applied "pinned" or "target"), moves the free vertices; then re-snapshots. */
static void check_usable(const char *file, int line) {
    double before[3 * CLOTH_N], after[3 * CLOTH_N];
    grip_solver_get_positions(g_s, g_cloth, before, CLOTH_N);
    GripStatus st = grip_solver_advance(g_s, 1.0 / 60.0);
    record(st == GRIP_STATUS_OK, file, line, "check_usable: grip_solver_advance", grip_last_error());
    grip_solver_get_positions(g_s, g_cloth, after, CLOTH_N);
    record(all_finite(after, 3 * CLOTH_N), file, line, "check_usable: positions finite", NULL);
    int pins_put = 1, others_moved = 1;
    for (int v = 0; v < CLOTH_N; v++) {
        int same = memcmp(&before[3 * v], &after[3 * v], 3 * sizeof(double)) == 0;
        if (v == PIN_A || v == PIN_B) pins_put &= fabs(after[3 * v + 2] - before[3 * v + 2]) <= 1e-9 &&
                                                 fabs(after[3 * v] - before[3 * v]) <= 1e-9;
        else others_moved &= !same;
    }
    record(pins_put, file, line, "check_usable: pinned corners stayed put", NULL);
    record(others_moved, file, line, "check_usable: free cloth vertices moved", NULL);
    watch_snapshot();
}
#define CHECK_USABLE() check_usable(__FILE__, __LINE__)

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

static void test_versions(void) {
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
    GripMaterial m = grip_material_default();
    CHECK(m.struct_tag == GRIP_MATERIAL_TAG);
    CHECK(m.density > 0 && m.youngs_modulus > 0 && m.thickness > 0 && m.poisson_ratio < 0.5);
    CHECK(m.membrane_model == GRIP_MEMBRANE_NEO_HOOKEAN);
}

/* Every way grip_solver_create can fail; *out_solver must be NULL afterwards. */
static void test_create_errors(void) {
    static int not_a_solver;
    GripSolver *out;
    GripSolverParams p;

#define EXPECT_CREATE_FAILS(params_expr, want, substring)                   \
    do {                                                                    \
        out = (GripSolver *)(void *)&not_a_solver;                          \
        EXPECT_STATUS(grip_solver_create((params_expr), &out), want, substring); \
        CHECK(out == NULL);                                                 \
    } while (0)
#define EXPECT_BAD_PARAM(field_assignment, substring)                                  \
    do {                                                                               \
        p = grip_solver_params_default();                                              \
        field_assignment;                                                              \
        EXPECT_CREATE_FAILS(&p, GRIP_STATUS_INVALID_ARGUMENT, substring);              \
    } while (0)

    EXPECT_CREATE_FAILS(NULL, GRIP_STATUS_NULL_POINTER, "params");
    p = grip_solver_params_default();
    EXPECT_STATUS(grip_solver_create(&p, NULL), GRIP_STATUS_NULL_POINTER, "out_solver");
    EXPECT_STATUS(grip_solver_create(NULL, NULL), GRIP_STATUS_NULL_POINTER, NULL);

    /* A struct filled in by hand instead of from grip_solver_params_default(). */
    GripSolverParams by_hand;
    memset(&by_hand, 0, sizeof by_hand);
    by_hand.time_step = 0.01;
    by_hand.gravity[2] = -9.81;
    by_hand.max_newton_iterations = 50;
    by_hand.max_line_search_steps = 30;
    by_hand.residual_tolerance = 1e-6;
    EXPECT_CREATE_FAILS(&by_hand, GRIP_STATUS_INVALID_ARGUMENT, "struct_tag");
    memset(&by_hand, 0, sizeof by_hand);
    EXPECT_CREATE_FAILS(&by_hand, GRIP_STATUS_INVALID_ARGUMENT, "struct_tag");
    EXPECT_BAD_PARAM(p.struct_tag = GRIP_MATERIAL_TAG, "struct_tag");

    EXPECT_BAD_PARAM(p.time_step = -0.01, "time_step");
    EXPECT_BAD_PARAM(p.time_step = 0.0, "time_step");
    EXPECT_BAD_PARAM(p.time_step = NAN, "time_step");
    EXPECT_BAD_PARAM(p.time_step = INFINITY, "time_step");
    EXPECT_BAD_PARAM(p.gravity[0] = NAN, "gravity");
    EXPECT_BAD_PARAM(p.gravity[2] = -INFINITY, "gravity");
    EXPECT_BAD_PARAM(p.max_newton_iterations = 0, "max_newton_iterations");
    EXPECT_BAD_PARAM(p.max_newton_iterations = 100001, "max_newton_iterations");
    EXPECT_BAD_PARAM(p.max_line_search_steps = 0, "max_line_search_steps");
    EXPECT_BAD_PARAM(p.max_line_search_steps = 61, "max_line_search_steps");
    EXPECT_BAD_PARAM(p.residual_tolerance = 0.0, "residual_tolerance");
    EXPECT_BAD_PARAM(p.residual_tolerance = 1.0, "residual_tolerance");
    EXPECT_BAD_PARAM(p.residual_tolerance = 2.0, "residual_tolerance");
    EXPECT_BAD_PARAM(p.residual_tolerance = -1e-6, "residual_tolerance");
    EXPECT_BAD_PARAM(p.residual_tolerance = NAN, "residual_tolerance");
    EXPECT_BAD_PARAM(p.velocity_tolerance = -1e-6, "velocity_tolerance");
    EXPECT_BAD_PARAM(p.velocity_tolerance = NAN, "velocity_tolerance");
    EXPECT_BAD_PARAM(p.velocity_tolerance = INFINITY, "velocity_tolerance");
    EXPECT_BAD_PARAM(p.linear_solver = 1, "linear_solver");
    EXPECT_BAD_PARAM(p.linear_solver = 0xFFFFFFFFu, "linear_solver");
    EXPECT_BAD_PARAM(p.integrator = 1, "integrator");
    EXPECT_BAD_PARAM(p.integrator = 0xFFFFFFFFu, "integrator");
    EXPECT_BAD_PARAM(p.worker_count = 1025, "worker_count");

    /* Edge values that are valid. */
    GripSolver *s = NULL;
    p = grip_solver_params_default();
    p.velocity_tolerance = 0.0;
    p.max_newton_iterations = 100000;
    p.max_line_search_steps = 60;
    p.worker_count = 1;
    p.residual_tolerance = 0.999;
    EXPECT_OK(grip_solver_create(&p, &s));
    CHECK(s != NULL);
    grip_solver_destroy(s);
#undef EXPECT_BAD_PARAM
#undef EXPECT_CREATE_FAILS
}

static void build_scene(void) {
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

static void test_fall(void) {
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

static void test_driven_pin(void) {
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

static void test_progress(void) {
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

/* A material with one field changed. */
static GripMaterial material_with(int field, double value) {
    GripMaterial m = grip_material_default();
    switch (field) {
    case 0: m.density = value; break;
    case 1: m.youngs_modulus = value; break;
    case 2: m.poisson_ratio = value; break;
    case 3: m.thickness = value; break;
    case 4: m.bending_stiffness = value; break;
    case 5: m.damping_alpha = value; break;
    case 6: m.damping_beta = value; break;
    default: break;
    }
    return m;
}

static void test_add_shell_errors(void) {
    GripMaterial m = grip_material_default();
    GripObjectId id = 12345;
    uint32_t tris[3 * (CLOTH_T + 1)];
    double xs[3 * CLOTH_N + 1];
    const size_t N = CLOTH_N, T = CLOTH_T;

#define ADD_SHELL(x, nv, t, nt, mat) grip_solver_add_shell(g_s, (x), (nv), (t), (nt), (mat), &id)

    /* NULL pointers. */
    EXPECT_STATUS(grip_solver_add_shell(NULL, g_cloth_x, N, g_cloth_t, T, &m, &id), GRIP_STATUS_NULL_POINTER, "solver");
    EXPECT_STATUS(ADD_SHELL(NULL, N, g_cloth_t, T, &m), GRIP_STATUS_NULL_POINTER, "positions");
    EXPECT_STATUS(ADD_SHELL(g_cloth_x, N, NULL, T, &m), GRIP_STATUS_NULL_POINTER, "triangles");
    EXPECT_STATUS(ADD_SHELL(g_cloth_x, N, g_cloth_t, T, NULL), GRIP_STATUS_NULL_POINTER, "material");
    EXPECT_STATUS(grip_solver_add_shell(g_s, g_cloth_x, N, g_cloth_t, T, &m, NULL), GRIP_STATUS_NULL_POINTER, "out_id");

    /* Counts. */
    EXPECT_STATUS(ADD_SHELL(g_cloth_x, 0, g_cloth_t, T, &m), GRIP_STATUS_INVALID_ARGUMENT, "vertex_count");
    EXPECT_STATUS(ADD_SHELL(g_cloth_x, N, g_cloth_t, 0, &m), GRIP_STATUS_INVALID_ARGUMENT, "triangle_count");
    EXPECT_STATUS(ADD_SHELL(NULL, 0, NULL, 0, &m), GRIP_STATUS_INVALID_ARGUMENT, "count");
    EXPECT_STATUS(ADD_SHELL(g_cloth_x, SIZE_MAX, g_cloth_t, T, &m), GRIP_STATUS_INVALID_ARGUMENT, "too large");
    EXPECT_STATUS(ADD_SHELL(g_cloth_x, SIZE_MAX / 8, g_cloth_t, T, &m), GRIP_STATUS_INVALID_ARGUMENT, "too large");
    EXPECT_STATUS(ADD_SHELL(g_cloth_x, N, g_cloth_t, SIZE_MAX / 2, &m), GRIP_STATUS_INVALID_ARGUMENT, "too large");
    /* More vertices than an object may have (u32 indices): refused before the array is read. */
    EXPECT_STATUS(ADD_SHELL(g_cloth_x, (size_t)(UINT32_MAX / 4) + 1, g_cloth_t, T, &m), GRIP_STATUS_INVALID_ARGUMENT,
                  "at most");
    /* Misaligned arrays. */
    const double *bad_x = (const double *)(uintptr_t)((uintptr_t)g_cloth_x + 1);
    const uint32_t *bad_t = (const uint32_t *)(uintptr_t)((uintptr_t)g_cloth_t + 2);
    EXPECT_STATUS(ADD_SHELL(bad_x, N, g_cloth_t, T, &m), GRIP_STATUS_INVALID_ARGUMENT, "aligned");
    EXPECT_STATUS(ADD_SHELL(g_cloth_x, N, bad_t, T, &m), GRIP_STATUS_INVALID_ARGUMENT, "aligned");

    /* Bad meshes. */
    memcpy(tris, g_cloth_t, sizeof g_cloth_t);
    tris[7] = CLOTH_N; /* one past the last vertex */
    EXPECT_STATUS(ADD_SHELL(g_cloth_x, N, tris, T, &m), GRIP_STATUS_INVALID_MESH, "refers to vertex");
    tris[7] = UINT32_MAX;
    EXPECT_STATUS(ADD_SHELL(g_cloth_x, N, tris, T, &m), GRIP_STATUS_INVALID_MESH, "refers to vertex");
    EXPECT_STATUS(ADD_SHELL(g_cloth_x, N - 1, g_cloth_t, T, &m), GRIP_STATUS_INVALID_MESH, "refers to vertex");
    memcpy(tris, g_cloth_t, sizeof g_cloth_t);
    tris[4] = tris[3]; /* triangle 1 repeats a vertex */
    EXPECT_STATUS(ADD_SHELL(g_cloth_x, N, tris, T, &m), GRIP_STATUS_INVALID_MESH, "repeats a vertex");
    memcpy(tris, g_cloth_t, sizeof g_cloth_t);
    tris[3 * T + 0] = g_cloth_t[1]; /* triangle 0 again, rotated */
    tris[3 * T + 1] = g_cloth_t[2];
    tris[3 * T + 2] = g_cloth_t[0];
    EXPECT_STATUS(ADD_SHELL(g_cloth_x, N, tris, T + 1, &m), GRIP_STATUS_INVALID_MESH, "duplicate");
    tris[3 * T + 0] = g_cloth_t[0]; /* triangle 0 again, flipped */
    tris[3 * T + 1] = g_cloth_t[2];
    tris[3 * T + 2] = g_cloth_t[1];
    EXPECT_STATUS(ADD_SHELL(g_cloth_x, N, tris, T + 1, &m), GRIP_STATUS_INVALID_MESH, "duplicate");
    {
        const double line[9] = {0, 0, 2, 1, 0, 2, 2, 0, 2}; /* collinear */
        const double point[9] = {0, 0, 2, 0, 0, 2, 0, 0, 2};
        const uint32_t tri[3] = {0, 1, 2};
        EXPECT_STATUS(ADD_SHELL(line, 3, tri, 1, &m), GRIP_STATUS_INVALID_MESH, "zero area");
        EXPECT_STATUS(ADD_SHELL(point, 3, tri, 1, &m), GRIP_STATUS_INVALID_MESH, "zero area");
    }
    /* Non-finite positions (reported as a malformed mesh). */
    memcpy(xs, g_cloth_x, sizeof g_cloth_x);
    xs[3 * 7 + 1] = NAN;
    EXPECT_STATUS(ADD_SHELL(xs, N, g_cloth_t, T, &m), GRIP_STATUS_INVALID_MESH, "not finite");
    xs[3 * 7 + 1] = INFINITY;
    EXPECT_STATUS(ADD_SHELL(xs, N, g_cloth_t, T, &m), GRIP_STATUS_INVALID_MESH, "not finite");
    xs[3 * 7 + 1] = -INFINITY;
    EXPECT_STATUS(ADD_SHELL(xs, N, g_cloth_t, T, &m), GRIP_STATUS_INVALID_MESH, "not finite");
    xs[3 * 7 + 1] = 1e300; /* finite, but its square overflows */
    EXPECT_STATUS(ADD_SHELL(xs, N, g_cloth_t, T, &m), GRIP_STATUS_INVALID_MESH, "beyond the limit");

    /* Materials. */
    GripMaterial bad;
    memset(&bad, 0, sizeof bad);
    EXPECT_STATUS(ADD_SHELL(g_cloth_x, N, g_cloth_t, T, &bad), GRIP_STATUS_INVALID_ARGUMENT, "struct_tag");
    bad = grip_material_default();
    bad.struct_tag = GRIP_SOLVER_PARAMS_TAG;
    EXPECT_STATUS(ADD_SHELL(g_cloth_x, N, g_cloth_t, T, &bad), GRIP_STATUS_INVALID_ARGUMENT, "struct_tag");
    bad = grip_material_default();
    bad.membrane_model = 2;
    EXPECT_STATUS(ADD_SHELL(g_cloth_x, N, g_cloth_t, T, &bad), GRIP_STATUS_INVALID_ARGUMENT, "membrane_model");
    bad.membrane_model = 0xFFFFFFFFu;
    EXPECT_STATUS(ADD_SHELL(g_cloth_x, N, g_cloth_t, T, &bad), GRIP_STATUS_INVALID_ARGUMENT, "membrane_model");

    static const struct { int field; double value; const char *name; } cases[] = {
        {0, 0.0, "density"}, {0, -300.0, "density"}, {0, NAN, "density"}, {0, INFINITY, "density"},
        {1, 0.0, "youngs_modulus"}, {1, -1e6, "youngs_modulus"}, {1, NAN, "youngs_modulus"},
        {1, INFINITY, "youngs_modulus"},
        {2, 0.5, "poisson_ratio"}, {2, 0.7, "poisson_ratio"}, {2, -1.0, "poisson_ratio"},
        {2, -2.0, "poisson_ratio"}, {2, NAN, "poisson_ratio"},
        {3, 0.0, "thickness"}, {3, -1e-3, "thickness"}, {3, NAN, "thickness"}, {3, INFINITY, "thickness"},
        {4, -1e-6, "bending_stiffness"}, {4, NAN, "bending_stiffness"}, {4, INFINITY, "bending_stiffness"},
        {5, -1.0, "damping_alpha"}, {5, NAN, "damping_alpha"}, {5, INFINITY, "damping_alpha"},
        {6, -1.0, "damping_beta"}, {6, NAN, "damping_beta"}, {6, INFINITY, "damping_beta"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char what[160];
        GripMaterial mc = material_with(cases[c].field, cases[c].value);
        snprintf(what, sizeof what, "add_shell with material.%s = %g", cases[c].name, cases[c].value);
        expect_status(__FILE__, __LINE__, what, ADD_SHELL(g_cloth_x, N, g_cloth_t, T, &mc),
                      GRIP_STATUS_INVALID_ARGUMENT, cases[c].name);
    }
    CHECK(id == 12345); /* no failing call wrote an id */

    /* Nothing was added: the next object id is still unused. */
    size_t count = 0;
    EXPECT_STATUS(grip_solver_vertex_count(g_s, g_cube + 1, &count), GRIP_STATUS_UNKNOWN_OBJECT, "no object");
    CHECK_USABLE();
#undef ADD_SHELL
}

static void test_add_solid_errors(void) {
    GripMaterial m = grip_material_default();
    GripObjectId id = 12345;
    uint32_t tets[4 * (CUBE_T + 1)];
    double xs[3 * CUBE_N];
    const size_t N = CUBE_N, T = CUBE_T;

#define ADD_SOLID(x, nv, t, nt, mat) grip_solver_add_solid(g_s, (x), (nv), (t), (nt), (mat), &id)

    EXPECT_STATUS(grip_solver_add_solid(NULL, g_cube_x, N, g_cube_t, T, &m, &id), GRIP_STATUS_NULL_POINTER, "solver");
    EXPECT_STATUS(ADD_SOLID(NULL, N, g_cube_t, T, &m), GRIP_STATUS_NULL_POINTER, "positions");
    EXPECT_STATUS(ADD_SOLID(g_cube_x, N, NULL, T, &m), GRIP_STATUS_NULL_POINTER, "tets");
    EXPECT_STATUS(ADD_SOLID(g_cube_x, N, g_cube_t, T, NULL), GRIP_STATUS_NULL_POINTER, "material");
    EXPECT_STATUS(grip_solver_add_solid(g_s, g_cube_x, N, g_cube_t, T, &m, NULL), GRIP_STATUS_NULL_POINTER, "out_id");

    EXPECT_STATUS(ADD_SOLID(g_cube_x, 0, g_cube_t, T, &m), GRIP_STATUS_INVALID_ARGUMENT, "vertex_count");
    EXPECT_STATUS(ADD_SOLID(g_cube_x, N, g_cube_t, 0, &m), GRIP_STATUS_INVALID_ARGUMENT, "tet_count");
    EXPECT_STATUS(ADD_SOLID(g_cube_x, SIZE_MAX, g_cube_t, T, &m), GRIP_STATUS_INVALID_ARGUMENT, "too large");
    EXPECT_STATUS(ADD_SOLID(g_cube_x, N, g_cube_t, SIZE_MAX / 2, &m), GRIP_STATUS_INVALID_ARGUMENT, "too large");

    memcpy(tets, g_cube_t, sizeof g_cube_t);
    tets[5] = CUBE_N;
    EXPECT_STATUS(ADD_SOLID(g_cube_x, N, tets, T, &m), GRIP_STATUS_INVALID_MESH, "refers to vertex");
    memcpy(tets, g_cube_t, sizeof g_cube_t);
    tets[7] = tets[4]; /* tet 1 repeats a vertex */
    EXPECT_STATUS(ADD_SOLID(g_cube_x, N, tets, T, &m), GRIP_STATUS_INVALID_MESH, "repeats a vertex");
    memcpy(tets, g_cube_t, sizeof g_cube_t);
    /* tet 0 again with an even permutation (same orientation) */
    tets[4 * T + 0] = g_cube_t[1];
    tets[4 * T + 1] = g_cube_t[2];
    tets[4 * T + 2] = g_cube_t[0];
    tets[4 * T + 3] = g_cube_t[3];
    EXPECT_STATUS(ADD_SOLID(g_cube_x, N, tets, T + 1, &m), GRIP_STATUS_INVALID_MESH, "duplicate");
    memcpy(tets, g_cube_t, sizeof g_cube_t);
    tets[4 * 2 + 2] = g_cube_t[4 * 2 + 3]; /* tet 2 inverted */
    tets[4 * 2 + 3] = g_cube_t[4 * 2 + 2];
    CHECK(tet_det(g_cube_x, &tets[8]) < 0);
    EXPECT_STATUS(ADD_SOLID(g_cube_x, N, tets, T, &m), GRIP_STATUS_INVALID_MESH, "inverted");
    {
        const uint32_t flat[4] = {0, 1, 3, 2}; /* the four z = 1 corners: zero volume */
        EXPECT_STATUS(ADD_SOLID(g_cube_x, N, flat, 1, &m), GRIP_STATUS_INVALID_MESH, "volume");
    }
    memcpy(xs, g_cube_x, sizeof g_cube_x);
    xs[3 * 6 + 2] = NAN;
    EXPECT_STATUS(ADD_SOLID(xs, N, g_cube_t, T, &m), GRIP_STATUS_INVALID_MESH, "not finite");
    xs[3 * 6 + 2] = INFINITY;
    EXPECT_STATUS(ADD_SOLID(xs, N, g_cube_t, T, &m), GRIP_STATUS_INVALID_MESH, "not finite");

    GripMaterial bad;
    memset(&bad, 0, sizeof bad);
    bad.density = 1000;
    bad.youngs_modulus = 1e5;
    bad.poisson_ratio = 0.3;
    EXPECT_STATUS(ADD_SOLID(g_cube_x, N, g_cube_t, T, &bad), GRIP_STATUS_INVALID_ARGUMENT, "struct_tag");
    bad = material_with(2, 0.5);
    EXPECT_STATUS(ADD_SOLID(g_cube_x, N, g_cube_t, T, &bad), GRIP_STATUS_INVALID_ARGUMENT, "poisson_ratio");
    bad = material_with(2, nextafter(0.5, 1.0));
    EXPECT_STATUS(ADD_SOLID(g_cube_x, N, g_cube_t, T, &bad), GRIP_STATUS_INVALID_ARGUMENT, "poisson_ratio");
    bad = material_with(0, -1000.0);
    EXPECT_STATUS(ADD_SOLID(g_cube_x, N, g_cube_t, T, &bad), GRIP_STATUS_INVALID_ARGUMENT, "density");
    bad = material_with(1, NAN);
    EXPECT_STATUS(ADD_SOLID(g_cube_x, N, g_cube_t, T, &bad), GRIP_STATUS_INVALID_ARGUMENT, "youngs_modulus");
    bad = material_with(5, -0.1);
    EXPECT_STATUS(ADD_SOLID(g_cube_x, N, g_cube_t, T, &bad), GRIP_STATUS_INVALID_ARGUMENT, "damping_alpha");
    bad = material_with(6, -0.1);
    EXPECT_STATUS(ADD_SOLID(g_cube_x, N, g_cube_t, T, &bad), GRIP_STATUS_INVALID_ARGUMENT, "damping_beta");
    bad = grip_material_default();
    bad.membrane_model = 7;
    EXPECT_STATUS(ADD_SOLID(g_cube_x, N, g_cube_t, T, &bad), GRIP_STATUS_INVALID_ARGUMENT, "membrane_model");
    CHECK(id == 12345);

    size_t count = 0;
    EXPECT_STATUS(grip_solver_vertex_count(g_s, g_cube + 1, &count), GRIP_STATUS_UNKNOWN_OBJECT, "no object");
    CHECK_USABLE();
#undef ADD_SOLID
}

/* Shell-only fields are ignored for solids; checked on a scratch solver. */
static void test_solid_ignores_shell_fields(void) {
    GripSolverParams p = grip_solver_params_default();
    GripSolver *t = NULL;
    GripObjectId id = 0;
    EXPECT_OK(grip_solver_create(&p, &t));
    GripMaterial m = material_with(3, 0.0); /* thickness 0 */
    m.bending_stiffness = -1.0;
    EXPECT_OK(grip_solver_add_solid(t, g_cube_x, CUBE_N, g_cube_t, CUBE_T, &m, &id));
    CHECK(id == 1);
    EXPECT_OK(grip_solver_step(t, 0.01));
    grip_solver_destroy(t);
}

static void test_attribute_errors(void) {
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

static void test_query_errors(void) {
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

static void test_step_errors(void) {
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

/* Newton failing (one iteration allowed, no velocity stop) leaves the solver unchanged. */
static void test_not_converged(void) {
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

/* Destroyed, foreign and twice-destroyed handles. */
static void test_handles(void) {
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
static void test_misaligned_outputs(void) {
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

/* A solver without objects steps trivially. */
static void test_empty_solver(void) {
    GripSolverParams p = grip_solver_params_default();
    GripSolver *t = NULL;
    EXPECT_OK(grip_solver_create(&p, &t));
    EXPECT_OK(grip_solver_advance(t, 0.1));
    EXPECT_OK(grip_solver_step(t, 0.01));
    size_t n = 0;
    EXPECT_STATUS(grip_solver_vertex_count(t, 1, &n), GRIP_STATUS_UNKNOWN_OBJECT, "no object");
    grip_solver_destroy(t);
}

int main(void) {
    printf("grip %s, ABI %u\n", grip_version(), (unsigned)grip_abi_version());
    test_versions();
    test_create_errors();
    build_scene();
    test_fall();
    test_driven_pin();
    test_progress();
    test_add_shell_errors();
    test_add_solid_errors();
    test_solid_ignores_shell_fields();
    test_attribute_errors();
    test_query_errors();
    test_step_errors();
    test_not_converged();
    test_empty_solver();
    test_misaligned_outputs();
    test_handles();

    /* The main solver still works after everything above. */
    CHECK_USABLE();
    g_watch.solver = NULL;
    grip_solver_destroy(g_s);
    EXPECT_STATUS(grip_solver_step(g_s, 0.01), GRIP_STATUS_INVALID_ARGUMENT, "live handle");
    grip_solver_destroy(g_s);

    printf("C API: %d passed, %d failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
