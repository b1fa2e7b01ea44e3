/* Bakes a scene file through grip_scene_run (C99) and checks its error paths. Built and run by
 * tests/scene_bake.rs, which then compares the output directories bit for bit with the Rust
 * frame driver's (the code of `grip run`).
 *
 * Usage: scene_bake SCENE.toml DIR
 * Writes into DIR:
 *   full/       the scene's frames in one call, with checkpoints;
 *   resumed/    frames 1..2 in one call, then the rest with GRIP_RUN_RESUME;
 *   cancelled/  stopped by the frame callback after frame 2, then resumed to the end;
 *   overridden/ with overrides (fewer frames, another friction), in one call.
 * Prints "C bake: N passed, M failed"; exits nonzero if a check failed. */

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
        printf("scene_bake.c:%d: FAILED: %s (last error: %s)\n", line, what, grip_last_error());
    }
}

static int error_mentions(const char *needle) {
    return strstr(grip_last_error(), needle) != NULL;
}

/* Frame callback: counts calls in *user_data (a size_t[2]: calls, last frame seen); stops the run
 * once frame 2 is written. */
static uint32_t stop_after_two(void *user_data, size_t frame, size_t last_frame, double seconds) {
    size_t *seen = (size_t *)user_data;
    seen[0] += 1;
    seen[1] = frame;
    return (frame >= 2 && last_frame > 2 && seconds >= 0.0) ? 1u : 0u;
}

static void join(char *buffer, size_t size, const char *dir, const char *name) {
    snprintf(buffer, size, "%s/%s", dir, name);
}

static void check_bad_calls(const char *scene, const char *dir) {
    char out[4096];
    join(out, sizeof out, dir, "refused");
    GripRunSummary summary;
    memset(&summary, 0xff, sizeof summary);
    CHECK(grip_scene_run(NULL, NULL, 0, out, 0, 0, NULL, NULL, &summary) == GRIP_STATUS_NULL_POINTER);
    CHECK(summary.frames == 0 && summary.substeps == 0);
    CHECK(grip_scene_run(scene, NULL, 0, NULL, 0, 0, NULL, NULL, NULL) == GRIP_STATUS_NULL_POINTER);
    CHECK(grip_scene_run(scene, NULL, 2, out, 0, 0, NULL, NULL, NULL) == GRIP_STATUS_NULL_POINTER);
    CHECK(error_mentions("overrides"));
    const char *null_inside[] = {"output.frames=1", NULL};
    CHECK(grip_scene_run(scene, null_inside, 2, out, 0, 0, NULL, NULL, NULL) == GRIP_STATUS_NULL_POINTER);
    CHECK(error_mentions("overrides[1]"));
    CHECK(grip_scene_run(scene, NULL, 0, out, 8, 0, NULL, NULL, NULL) == GRIP_STATUS_INVALID_ARGUMENT);
    CHECK(error_mentions("flags"));
    CHECK(grip_scene_run(scene, NULL, 0, "", 0, 0, NULL, NULL, NULL) == GRIP_STATUS_INVALID_ARGUMENT);
    CHECK(grip_scene_run("no/such/scene.toml", NULL, 0, out, 0, 0, NULL, NULL, NULL) ==
          GRIP_STATUS_INVALID_ARGUMENT);
    CHECK(error_mentions("no/such/scene.toml"));
    const char *unknown[] = {"object.nobody.density=1"};
    CHECK(grip_scene_run(scene, unknown, 1, out, 0, 0, NULL, NULL, NULL) == GRIP_STATUS_INVALID_ARGUMENT);
    CHECK(error_mentions("no [[object]] is named \"nobody\""));
    const char *no_such_key[] = {"solver.no_such_key=1"};
    CHECK(grip_scene_run(scene, no_such_key, 1, out, 0, 0, NULL, NULL, NULL) == GRIP_STATUS_INVALID_ARGUMENT);
    CHECK(error_mentions("no_such_key"));
    const char *malformed[] = {"solver.time_step"};
    CHECK(grip_scene_run(scene, malformed, 1, out, 0, 0, NULL, NULL, NULL) == GRIP_STATUS_INVALID_ARGUMENT);
    CHECK(error_mentions("KEY=VALUE"));
    /* Resuming where no checkpoint was written. */
    CHECK(grip_scene_run(scene, NULL, 0, out, GRIP_RUN_RESUME, 0, NULL, NULL, NULL) == GRIP_STATUS_INVALID_ARGUMENT);
    CHECK(error_mentions("cannot resume"));
    /* The loader takes the same overrides. */
    GripSolver *s = (GripSolver *)0x1;
    CHECK(grip_scene_load_overrides(scene, unknown, 1, &s) == GRIP_STATUS_INVALID_ARGUMENT && s == NULL);
    CHECK(grip_scene_load_overrides(scene, NULL, 1, &s) == GRIP_STATUS_NULL_POINTER && s == NULL);
    CHECK(grip_scene_load_overrides(scene, unknown, 1, NULL) == GRIP_STATUS_NULL_POINTER);
    const char *seven[] = {"output.frames = 7", "solver.default_friction=0.1"};
    size_t frames = 0;
    CHECK(grip_scene_load_overrides(scene, seven, 2, &s) == GRIP_STATUS_OK);
    CHECK(grip_scene_frame_count(s, &frames) == GRIP_STATUS_OK && frames == 7);
    grip_solver_destroy(s);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: scene_bake SCENE.toml DIR\n");
        return 2;
    }
    const char *scene = argv[1];
    char out[4096];
    check_bad_calls(scene, argv[2]);

    GripRunSummary summary;
    join(out, sizeof out, argv[2], "full");
    CHECK(grip_scene_run(scene, NULL, 0, out, GRIP_RUN_CHECKPOINT, 0, NULL, NULL, &summary) == GRIP_STATUS_OK);
    size_t frames = summary.frames;
    CHECK(frames >= 3 && summary.substeps > 0 && summary.newton_iterations >= summary.substeps);
    printf("frames %zu\n", frames);

    join(out, sizeof out, argv[2], "resumed");
    CHECK(grip_scene_run(scene, NULL, 0, out, GRIP_RUN_CHECKPOINT, 2, NULL, NULL, &summary) == GRIP_STATUS_OK);
    CHECK(summary.frames == 2);
    CHECK(grip_scene_run(scene, NULL, 0, out, GRIP_RUN_CHECKPOINT | GRIP_RUN_RESUME, 0, NULL, NULL, &summary) ==
          GRIP_STATUS_OK);
    CHECK(summary.frames == frames);

    join(out, sizeof out, argv[2], "cancelled");
    size_t seen[2] = {0, 0};
    CHECK(grip_scene_run(scene, NULL, 0, out, GRIP_RUN_CHECKPOINT, 0, stop_after_two, seen, &summary) ==
          GRIP_STATUS_CANCELLED);
    CHECK(error_mentions("after frame 2"));
    CHECK(summary.frames == 2 && seen[0] == 2 && seen[1] == 2);
    CHECK(grip_scene_run(scene, NULL, 0, out, GRIP_RUN_RESUME | GRIP_RUN_CHECKPOINT, 0, stop_after_two, seen,
                         &summary) == GRIP_STATUS_OK);
    CHECK(summary.frames == frames && seen[0] == 2 + frames - 2);

    join(out, sizeof out, argv[2], "overridden");
    const char *overrides[] = {"output.frames=2", "solver.gravity=[0, 0, -5]"};
    CHECK(grip_scene_run(scene, overrides, 2, out, 0, 0, NULL, NULL, &summary) == GRIP_STATUS_OK);
    CHECK(summary.frames == 2);

    printf("C bake: %d passed, %d failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
