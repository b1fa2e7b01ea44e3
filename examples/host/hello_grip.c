/* The smallest C99 host of grip: a 10 × 10 cloth pinned at two corners swings for 48 frames.
 * Every call's status is checked; grip_last_error() says what went wrong.
 * SPDX-License-Identifier: MIT */

#include "grip.h"

#include <stdio.h>

#define N 10 /* vertices per side */

static int ok(GripStatus status, const char *what) {
    if (status != GRIP_STATUS_OK) {
        fprintf(stderr, "hello_grip: %s failed (status %u): %s\n", what, (unsigned)status, grip_last_error());
        return 0;
    }
    return 1;
}

int main(void) {
    static double xyz[3 * N * N];
    static uint32_t tris[6 * (N - 1) * (N - 1)];
    static double pinned[N * N];
    size_t t = 0;
    for (int j = 0; j < N; j++) {
        for (int i = 0; i < N; i++) {
            double *p = &xyz[3 * (j * N + i)];
            p[0] = 0.5 * i / (N - 1); /* a 0.5 m square in the XY plane at z = 1 m */
            p[1] = 0.5 * j / (N - 1);
            p[2] = 1.0;
            if (i < N - 1 && j < N - 1) {
                uint32_t a = (uint32_t)(j * N + i), b = a + 1, c = a + N, d = c + 1;
                tris[t++] = a; tris[t++] = b; tris[t++] = d;
                tris[t++] = a; tris[t++] = d; tris[t++] = c;
            }
        }
    }
    pinned[0] = pinned[N - 1] = 1.0; /* the corners at y = 0 */

    if (grip_abi_version() != GRIP_ABI_VERSION || grip_sizeof_solver_params() != sizeof(GripSolverParams) ||
        grip_sizeof_material() != sizeof(GripMaterial)) {
        fprintf(stderr, "hello_grip: the grip library does not match grip.h\n");
        return 1;
    }
    GripSolverParams params = grip_solver_params_default(); /* time_step [s], gravity [m/s^2], ... */
    GripMaterial cloth = grip_material_default();           /* density [kg/m^3], E [Pa], ... */
    GripSolver *solver = NULL;
    GripObjectId id = 0;
    int good = ok(grip_solver_create(&params, &solver), "grip_solver_create") &&
               ok(grip_solver_add_shell(solver, xyz, N * N, tris, t / 3, &cloth, &id), "grip_solver_add_shell") &&
               ok(grip_solver_set_vertex_attribute(solver, id, "pinned", pinned, N * N, 1), "pinned");
    for (int frame = 1; good && frame <= 48; frame++) {
        good = ok(grip_solver_advance(solver, 1.0 / 24.0), "grip_solver_advance") &&
               ok(grip_solver_get_positions(solver, id, xyz, N * N), "grip_solver_get_positions");
    }
    if (good) {
        const double *far = &xyz[3 * (N * N - 1)];
        printf("hello_grip: grip %s; after 2 s the free corner is at (%.4f, %.4f, %.4f) m\n", grip_version(), far[0],
               far[1], far[2]);
    }
    grip_solver_destroy(solver); /* NULL is fine */
    return good ? 0 : 1;
}
