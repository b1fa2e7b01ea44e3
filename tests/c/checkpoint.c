/* C API test of grip: checkpoints of the main solver. The state taken with
 * grip_solver_checkpoint and put back with grip_solver_restore continues bit for bit; a too
 * small buffer, NULL pointers, damaged bytes and a checkpoint of another model are refused with
 * their status and message, leaving the solver unchanged. See check.h. */

#include "check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Positions of the cloth and the cube, concatenated. */
static void positions(double *out) {
    grip_solver_get_positions(g_s, g_cloth, out, CLOTH_N);
    grip_solver_get_positions(g_s, g_cube, out + 3 * CLOTH_N, CUBE_N);
}

void test_checkpoint(void) {
    size_t size = 0, written = 0;
    EXPECT_OK(grip_solver_checkpoint_size(g_s, &size));
    CHECK(size > 8 * (CLOTH_N + CUBE_N));
    uint8_t *state = malloc(size + 16);
    CHECK(state != NULL);
    if (state == NULL) return;
    EXPECT_STATUS(grip_solver_checkpoint(g_s, state, size - 1, &written), GRIP_STATUS_INVALID_ARGUMENT,
                  "capacity");
    CHECK(written == 0);
    EXPECT_STATUS(grip_solver_checkpoint(g_s, state, size, NULL), GRIP_STATUS_NULL_POINTER, "out_size");
    EXPECT_STATUS(grip_solver_checkpoint(g_s, NULL, size, &written), GRIP_STATUS_NULL_POINTER, "out_bytes");
    EXPECT_STATUS(grip_solver_checkpoint_size(g_s, NULL), GRIP_STATUS_NULL_POINTER, "out_size");
    EXPECT_OK(grip_solver_checkpoint(g_s, state, size + 16, &written));
    CHECK(written == size);

    /* Two advances from the checkpoint give the same bits. */
    static double first[3 * (CLOTH_N + CUBE_N)], second[3 * (CLOTH_N + CUBE_N)];
    EXPECT_OK(grip_solver_advance(g_s, 1.0 / 60.0));
    positions(first);
    EXPECT_OK(grip_solver_restore(g_s, state, size));
    EXPECT_OK(grip_solver_advance(g_s, 1.0 / 60.0));
    positions(second);
    CHECK(memcmp(first, second, sizeof first) == 0);

    /* Refused restores change nothing. */
    watch_snapshot();
    EXPECT_STATUS(grip_solver_restore(g_s, state, size - 3), GRIP_STATUS_INVALID_ARGUMENT, "checkpoint");
    EXPECT_STATUS(grip_solver_restore(g_s, state + 1, size - 1), GRIP_STATUS_INVALID_ARGUMENT, "magic");
    EXPECT_STATUS(grip_solver_restore(g_s, NULL, size), GRIP_STATUS_NULL_POINTER, "bytes");
    EXPECT_STATUS(grip_solver_restore(NULL, state, size), GRIP_STATUS_NULL_POINTER, NULL);

    /* Another model: the cloth alone. */
    GripSolverParams params = grip_solver_params_default();
    GripSolver *other = NULL;
    GripMaterial m = grip_material_default();
    GripObjectId id = 0;
    EXPECT_OK(grip_solver_create(&params, &other));
    EXPECT_OK(grip_solver_add_shell(other, g_cloth_x, CLOTH_N, g_cloth_t, CLOTH_T, &m, &id));
    EXPECT_STATUS(grip_solver_restore(other, state, size), GRIP_STATUS_INVALID_ARGUMENT, "another model");
    grip_solver_destroy(other);
    free(state);
    CHECK_USABLE();
}
