/* C API test of grip: the failure policy. GRIP_FAILURE_POLICY_STRICT (the default) fails a call
 * whose substep still fails after its halvings and changes nothing; GRIP_FAILURE_POLICY_CONTINUE
 * takes that substep by a fallback and reports it in GripStepReport; an unknown policy is
 * refused by grip_solver_create with a message naming the field. See check.h. */

#include "check.h"

#include <math.h>
#include <string.h>

/* The stretched, pinned cloth of test_not_converged: one Newton iteration cannot solve it. */
static GripSolver *stretched_cloth(uint32_t policy, GripObjectId *id, double *stretched) {
    GripSolverParams p = grip_solver_params_default();
    p.max_newton_iterations = 1;
    p.velocity_tolerance = 0.0;
    p.residual_tolerance = 1e-14;
    p.failure_policy = policy;
    GripSolver *t = NULL;
    GripMaterial m = grip_material_default();
    EXPECT_OK(grip_solver_create(&p, &t));
    EXPECT_OK(grip_solver_add_shell(t, g_cloth_x, CLOTH_N, g_cloth_t, CLOTH_T, &m, id));
    double pinned[CLOTH_N] = {0};
    pinned[PIN_A] = pinned[PIN_B] = 1.0;
    EXPECT_OK(grip_solver_set_vertex_attribute(t, *id, "pinned", pinned, CLOTH_N, 1));
    for (int i = 0; i < 3 * CLOTH_N; i++) stretched[i] = g_cloth_x[i] * (i % 3 == 0 ? 1.3 : 1.0);
    EXPECT_OK(grip_solver_set_vertex_attribute(t, *id, "position", stretched, CLOTH_N, 3));
    return t;
}

void test_failure_policy(void) {
    GripSolverParams p = grip_solver_params_default();
    CHECK(p.failure_policy == GRIP_FAILURE_POLICY_STRICT);
    CHECK(GRIP_FAILURE_POLICY_STRICT == 0 && GRIP_FAILURE_POLICY_CONTINUE == 1);
    GripSolver *bad = (GripSolver *)(void *)&p;
    p.failure_policy = 2;
    EXPECT_STATUS(grip_solver_create(&p, &bad), GRIP_STATUS_INVALID_ARGUMENT, "failure_policy: unknown value 2");
    CHECK(bad == NULL);
    p.failure_policy = 0xFFFFFFFFu;
    EXPECT_STATUS(grip_solver_create(&p, &bad), GRIP_STATUS_INVALID_ARGUMENT, "failure_policy");

    GripObjectId id = 0;
    double stretched[3 * CLOTH_N], x[3 * CLOTH_N];
    GripStepReport r;
    GripSolver *strict = stretched_cloth(GRIP_FAILURE_POLICY_STRICT, &id, stretched);
    EXPECT_STATUS(grip_solver_advance(strict, 0.05), GRIP_STATUS_NOT_CONVERGED, "converge");
    EXPECT_OK(grip_solver_get_positions(strict, id, x, CLOTH_N));
    CHECK(memcmp(stretched, x, sizeof x) == 0);
    EXPECT_OK(grip_solver_get_report(strict, &r));
    CHECK(r.fallbacks_lagged == 0 && r.fallbacks_frictionless == 0 && r.fallbacks_best_iterate == 0);
    CHECK(r.last_fallback == GRIP_FALLBACK_NONE && r.fallback_object == 0 && (r.warnings & GRIP_WARNING_FALLBACK) == 0);
    grip_solver_destroy(strict);

    /* Without contact there is no friction to lag or drop: every fallback is the best iterate. */
    GripSolver *go_on = stretched_cloth(GRIP_FAILURE_POLICY_CONTINUE, &id, stretched);
    EXPECT_OK(grip_solver_advance(go_on, 0.05));
    EXPECT_OK(grip_solver_get_report(go_on, &r));
    CHECK(r.fallbacks_best_iterate >= 1 && r.fallbacks_lagged == 0 && r.fallbacks_frictionless == 0);
    CHECK(r.last_fallback == GRIP_FALLBACK_BEST_ITERATE && (r.warnings & GRIP_WARNING_FALLBACK) != 0);
    CHECK(r.converged == 0 && fabs(r.simulated_time - 0.05) < 1e-12);
    CHECK(r.fallback_object == id && r.fallback_vertex < CLOTH_N && r.fallback_vertex != PIN_A &&
          r.fallback_vertex != PIN_B);
    CHECK(isfinite(r.fallback_position[0]) && isfinite(r.fallback_position[1]) && isfinite(r.fallback_position[2]));
    EXPECT_OK(grip_solver_get_positions(go_on, id, x, CLOTH_N));
    int finite = 1;
    for (int i = 0; i < 3 * CLOTH_N; i++) finite = finite && isfinite(x[i]);
    CHECK(finite && memcmp(stretched, x, sizeof x) != 0);
    grip_solver_destroy(go_on);
}
