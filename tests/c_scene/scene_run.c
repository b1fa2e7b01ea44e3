/* Runs a scene file through the C API (grip_scene_*) and prints every object's positions after
 * every frame, and checks the error paths of the scene functions. Built and run by
 * tests/scene_api.rs, which compares the positions with the Rust frame driver's.
 *
 * Usage: scene_run SCENE.toml
 * Prints "object <index> <name> <id>" per object, then per frame and object
 * "p <frame> <index> x0 y0 z0 x1 ..." (%.17g: doubles round-trip exactly), then
 * "C scene: N passed, M failed"; exits nonzero if a check failed. */

#include "grip.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_passed = 0;
static int g_failed = 0;

#define CHECK(cond) check((cond) ? 1 : 0, __LINE__, #cond)

static void check(int ok, int line, const char *what) {
    if (ok) {
        g_passed++;
    } else {
        g_failed++;
        printf("scene_run.c:%d: FAILED: %s (last error: %s)\n", line, what, grip_last_error());
    }
}

/* The failing call left a message naming the problem. */
static int error_mentions(const char *needle) {
    return strstr(grip_last_error(), needle) != NULL;
}

/* Error paths that need no scene, or a plain solver. */
static void check_errors_without_a_scene(const char *path) {
    GripSolver *s = (GripSolver *)0x1;
    CHECK(grip_scene_load(NULL, &s) == GRIP_STATUS_NULL_POINTER && s == NULL);
    CHECK(grip_scene_load(path, NULL) == GRIP_STATUS_NULL_POINTER);
    s = (GripSolver *)0x1;
    CHECK(grip_scene_load("no/such/scene.toml", &s) == GRIP_STATUS_INVALID_ARGUMENT && s == NULL);
    CHECK(error_mentions("no/such/scene.toml"));

    GripSolverParams params = grip_solver_params_default();
    GripSolver *plain = NULL;
    CHECK(grip_solver_create(&params, &plain) == GRIP_STATUS_OK);
    size_t frames = 7;
    CHECK(grip_scene_frame_count(plain, &frames) == GRIP_STATUS_INVALID_ARGUMENT && frames == 7);
    CHECK(error_mentions("grip_scene_load"));
    CHECK(grip_scene_advance_frame(plain, 1) == GRIP_STATUS_INVALID_ARGUMENT);
    grip_solver_destroy(plain);
    CHECK(grip_scene_frame_count(plain, &frames) == GRIP_STATUS_INVALID_ARGUMENT);
    CHECK(grip_scene_frame_count(NULL, &frames) == GRIP_STATUS_NULL_POINTER);
}

/* Progress callback that cancels at once. */
static uint32_t cancel(void *user_data, double fraction_done) {
    (void)user_data;
    (void)fraction_done;
    return 1;
}

/* Error paths on a loaded scene, a cancelled frame included: each leaves the outputs and the
 * positions as they were. */
static void check_errors_on(GripSolver *s, GripObjectId id, double *before, double *after, size_t n) {
    size_t count = 0;
    CHECK(grip_scene_object_count(s, &count) == GRIP_STATUS_OK);
    GripObjectId out_id = 99;
    CHECK(grip_scene_object_id(s, count, &out_id) == GRIP_STATUS_INVALID_ARGUMENT && out_id == 99);
    CHECK(error_mentions("out of range"));
    const char *name = "untouched";
    CHECK(grip_scene_object_name(s, count, &name) == GRIP_STATUS_INVALID_ARGUMENT && strcmp(name, "untouched") == 0);
    CHECK(grip_scene_object_name(s, 0, NULL) == GRIP_STATUS_NULL_POINTER);
    CHECK(grip_scene_fps(s, NULL) == GRIP_STATUS_NULL_POINTER);
    size_t frames = 0;
    CHECK(grip_scene_frame_count(s, &frames) == GRIP_STATUS_OK);
    CHECK(grip_solver_get_positions(s, id, before, n) == GRIP_STATUS_OK);
    CHECK(grip_scene_advance_frame(s, 0) == GRIP_STATUS_INVALID_ARGUMENT);
    CHECK(error_mentions("frame 0"));
    CHECK(grip_scene_advance_frame(s, frames + 1) == GRIP_STATUS_INVALID_ARGUMENT);
    CHECK(grip_solver_set_progress_callback(s, cancel, NULL) == GRIP_STATUS_OK);
    CHECK(grip_scene_advance_frame(s, 2) == GRIP_STATUS_CANCELLED);
    CHECK(grip_solver_set_progress_callback(s, NULL, NULL) == GRIP_STATUS_OK);
    CHECK(grip_solver_get_positions(s, id, after, n) == GRIP_STATUS_OK);
    CHECK(memcmp(before, after, 3 * n * sizeof(double)) == 0);
}

/* A cancelled frame puts back the collider poses and pin targets it set: after it, a plain
 * advance moves the scene as it moves a fresh copy that never saw the frame (the targets would
 * otherwise drag the pinned edge and the ball along). */
static void check_cancelled_frame_restores_targets(const char *path, size_t n) {
    GripSolver *a = NULL, *b = NULL;
    CHECK(grip_scene_load(path, &a) == GRIP_STATUS_OK);
    CHECK(grip_scene_load(path, &b) == GRIP_STATUS_OK);
    GripObjectId id = 0;
    double fps = 0.0;
    CHECK(grip_scene_object_id(a, 0, &id) == GRIP_STATUS_OK && grip_scene_fps(a, &fps) == GRIP_STATUS_OK);
    CHECK(grip_solver_set_progress_callback(a, cancel, NULL) == GRIP_STATUS_OK);
    CHECK(grip_scene_advance_frame(a, 3) == GRIP_STATUS_CANCELLED);
    CHECK(grip_solver_set_progress_callback(a, NULL, NULL) == GRIP_STATUS_OK);
    CHECK(grip_solver_advance(a, 1.0 / fps) == GRIP_STATUS_OK);
    CHECK(grip_solver_advance(b, 1.0 / fps) == GRIP_STATUS_OK);
    double *xa = malloc(3 * n * sizeof(double)), *xb = malloc(3 * n * sizeof(double));
    CHECK(grip_solver_get_positions(a, id, xa, n) == GRIP_STATUS_OK);
    CHECK(grip_solver_get_positions(b, id, xb, n) == GRIP_STATUS_OK);
    CHECK(memcmp(xa, xb, 3 * n * sizeof(double)) == 0);
    free(xa);
    free(xb);
    grip_solver_destroy(a);
    grip_solver_destroy(b);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: scene_run SCENE.toml\n");
        return 2;
    }
    check_errors_without_a_scene(argv[1]);

    GripSolver *s = NULL;
    if (grip_scene_load(argv[1], &s) != GRIP_STATUS_OK) {
        printf("grip_scene_load failed: %s\n", grip_last_error());
        return 1;
    }
    size_t frames = 0, count = 0;
    double fps = 0.0;
    CHECK(grip_scene_frame_count(s, &frames) == GRIP_STATUS_OK && frames > 0);
    CHECK(grip_scene_fps(s, &fps) == GRIP_STATUS_OK && fps > 0.0);
    CHECK(grip_scene_object_count(s, &count) == GRIP_STATUS_OK && count > 0 && count <= 16);
    GripObjectId ids[16];
    size_t sizes[16];
    double *xyz[16];
    size_t largest = 0;
    for (size_t i = 0; i < count && i < 16; i++) {
        const char *name = NULL;
        CHECK(grip_scene_object_id(s, i, &ids[i]) == GRIP_STATUS_OK);
        CHECK(grip_scene_object_name(s, i, &name) == GRIP_STATUS_OK && name != NULL);
        CHECK(grip_solver_vertex_count(s, ids[i], &sizes[i]) == GRIP_STATUS_OK);
        xyz[i] = malloc(3 * sizes[i] * sizeof(double));
        largest = sizes[i] > largest ? sizes[i] : largest;
        printf("object %zu %s %u\n", i, name ? name : "?", ids[i]);
    }
    double *before = malloc(3 * largest * sizeof(double));
    double *after = malloc(3 * largest * sizeof(double));
    check_errors_on(s, ids[0], before, after, sizes[0]);
    check_cancelled_frame_restores_targets(argv[1], sizes[0]);

    for (size_t frame = 1; frame <= frames; frame++) {
        GripStatus status = grip_scene_advance_frame(s, frame);
        CHECK(status == GRIP_STATUS_OK);
        if (status != GRIP_STATUS_OK) break;
        for (size_t i = 0; i < count && i < 16; i++) {
            CHECK(grip_solver_get_positions(s, ids[i], xyz[i], sizes[i]) == GRIP_STATUS_OK);
            printf("p %zu %zu", frame, i);
            for (size_t k = 0; k < 3 * sizes[i]; k++) printf(" %.17g", xyz[i][k]);
            printf("\n");
        }
    }
    for (size_t i = 0; i < count && i < 16; i++) free(xyz[i]);
    free(before);
    free(after);
    grip_solver_destroy(s);
    printf("C scene: %d passed, %d failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
