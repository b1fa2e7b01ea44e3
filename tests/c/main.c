/* C API test of grip: check bookkeeping, the watched solver, the group-end check and main().
 * See check.h for the layout of the program. */

#include "check.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------ */
/* Check bookkeeping                                                                          */

int g_passed = 0;
int g_failed = 0;

void record(int ok, const char *file, int line, const char *what, const char *detail) {
    if (ok) {
        g_passed++;
    } else {
        g_failed++;
        printf("%s:%d: FAILED: %s%s%s\n", file, line, what, detail ? " -- " : "", detail ? detail : "");
    }
}

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

Watch g_watch;

void watch_snapshot(void) {
    for (int o = 0; o < g_watch.object_count; o++) {
        size_t n = g_watch.vertex_counts[o];
        if (grip_solver_get_positions(g_watch.solver, g_watch.ids[o], g_watch.positions[o], n) != GRIP_STATUS_OK ||
            grip_solver_get_velocities(g_watch.solver, g_watch.ids[o], g_watch.velocities[o], n) != GRIP_STATUS_OK) {
            fprintf(stderr, "watch_snapshot: cannot read object %u: %s\n", g_watch.ids[o], grip_last_error());
            exit(2);
        }
    }
}

int watch_unchanged(void) {
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

void expect_status(const char *file, int line, const char *expr, GripStatus got, GripStatus want,
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

/* ------------------------------------------------------------------------------------------ */
/* The group-end check                                                                        */

int all_finite(const double *x, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}

GripSolver *g_s; /* the main solver, created by build_scene() */
GripObjectId g_cloth, g_cube;

void square_at(double lo, double hi, double z, double out[12]) {
    const double xy[8] = {lo, lo, hi, lo, hi, hi, lo, hi};
    for (int v = 0; v < 4; v++) {
        out[3 * v] = xy[2 * v];
        out[3 * v + 1] = xy[2 * v + 1];
        out[3 * v + 2] = z;
    }
}

void check_usable(const char *file, int line) {
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

/* ------------------------------------------------------------------------------------------ */
/* The run: tests in order (later tests rely on the state the earlier ones leave)             */

int main(void) {
    printf("grip %s, ABI %u\n", grip_version(), (unsigned)grip_abi_version());
    test_versions();
    test_create_errors();
    test_integrators();
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
    { void test_tet_mesh(void); test_tet_mesh(); } /* tet_mesh.c */
    test_colliders();
    test_checkpoint();
    test_failure_policy();
    test_pinch();

    /* The main solver still works after everything above. */
    CHECK_USABLE();
    g_watch.solver = NULL;
    grip_solver_destroy(g_s);
    EXPECT_STATUS(grip_solver_step(g_s, 0.01), GRIP_STATUS_INVALID_ARGUMENT, "live handle");
    grip_solver_destroy(g_s);

    printf("C API: %d passed, %d failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
