/* C API test of grip: the integrator codes and the fields of their families (newmark_beta,
 * newmark_gamma, spectral_radius, modal_count, semi_implicit). Their defaults, every code and
 * every edge value accepted by grip_solver_create, and the values out of range refused with a
 * message naming the field. Creation only: no step is taken. See check.h. */

#include "check.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

/* grip_solver_create of `p` must succeed; the solver is destroyed again. */
static void expect_created(const char *file, int line, const char *what, const GripSolverParams *p) {
    GripSolver *s = NULL;
    expect_status(file, line, what, grip_solver_create(p, &s), GRIP_STATUS_OK, NULL);
    record(s != NULL, file, line, what, "no solver written");
    grip_solver_destroy(s);
}

/* grip_solver_create of `p` must fail with GRIP_STATUS_INVALID_ARGUMENT naming `field`. */
static void expect_refused(const char *file, int line, const char *what, const GripSolverParams *p,
                           const char *field) {
    static int not_a_solver;
    GripSolver *s = (GripSolver *)(void *)&not_a_solver;
    expect_status(file, line, what, grip_solver_create(p, &s), GRIP_STATUS_INVALID_ARGUMENT, field);
    record(s == NULL, file, line, what, "*out_solver not cleared");
}

#define CREATED_WITH(assignment)                                                                   \
    do {                                                                                           \
        GripSolverParams p_ = grip_solver_params_default();                                        \
        p_.assignment;                                                                             \
        expect_created(__FILE__, __LINE__, #assignment, &p_);                                      \
    } while (0)
#define REFUSED_WITH(assignment, field)                                                            \
    do {                                                                                           \
        GripSolverParams p_ = grip_solver_params_default();                                        \
        p_.assignment;                                                                             \
        expect_refused(__FILE__, __LINE__, #assignment, &p_, "params." field);                     \
    } while (0)

void test_integrators(void) {
    /* The codes are part of the ABI. */
    CHECK(GRIP_INTEGRATOR_SEMI_IMPLICIT == 5 && GRIP_INTEGRATOR_NEWMARK == 6 &&
          GRIP_INTEGRATOR_GENERALIZED_ALPHA == 7 && GRIP_INTEGRATOR_EXPONENTIAL_EULER == 8 &&
          GRIP_INTEGRATOR_SIERE == 9);

    GripSolverParams d = grip_solver_params_default();
    CHECK(d.integrator == GRIP_INTEGRATOR_BACKWARD_EULER);
    CHECK(d.newmark_beta == 0.25 && d.newmark_gamma == 0.5);
    CHECK(d.spectral_radius == 0.8);
    CHECK(d.modal_count == 10 && d.semi_implicit == 0);
    CHECK(d.struct_tag == GRIP_SOLVER_PARAMS_TAG);

    /* Every code, alone and with semi-implicit stages. */
    for (uint32_t code = GRIP_INTEGRATOR_BACKWARD_EULER; code <= GRIP_INTEGRATOR_SIERE; ++code) {
        char what[64];
        GripSolverParams p = grip_solver_params_default();
        p.integrator = code;
        snprintf(what, sizeof what, "integrator %u", (unsigned)code);
        expect_created(__FILE__, __LINE__, what, &p);
        p.semi_implicit = 1;
        snprintf(what, sizeof what, "integrator %u, semi_implicit 1", (unsigned)code);
        expect_created(__FILE__, __LINE__, what, &p);
    }
    {
        GripSolverParams p = grip_solver_params_default();
        p.integrator = GRIP_INTEGRATOR_GENERALIZED_ALPHA;
        p.newmark_beta = 0.3;
        p.newmark_gamma = 0.6;
        p.spectral_radius = 0.6;
        p.modal_count = 12;
        p.semi_implicit = 1;
        expect_created(__FILE__, __LINE__, "every integrator field set", &p);
    }

    /* Edge values that are valid. */
    CREATED_WITH(newmark_beta = 1.0);
    CREATED_WITH(newmark_beta = 1e-12);
    CREATED_WITH(newmark_gamma = 0.5);
    CREATED_WITH(newmark_gamma = 1.0);
    CREATED_WITH(spectral_radius = 0.0);
    CREATED_WITH(spectral_radius = 1.0);
    CREATED_WITH(modal_count = 1);
    CREATED_WITH(modal_count = 200);

    /* Out of range: refused naming the field. */
    REFUSED_WITH(integrator = GRIP_INTEGRATOR_SIERE + 1, "integrator");
    REFUSED_WITH(integrator = 0xFFFFFFFFu, "integrator");
    REFUSED_WITH(newmark_beta = 0.0, "newmark_beta");
    REFUSED_WITH(newmark_beta = -0.25, "newmark_beta");
    REFUSED_WITH(newmark_beta = 1.5, "newmark_beta");
    REFUSED_WITH(newmark_beta = NAN, "newmark_beta");
    REFUSED_WITH(newmark_gamma = 0.4, "newmark_gamma");
    REFUSED_WITH(newmark_gamma = 1.1, "newmark_gamma");
    REFUSED_WITH(newmark_gamma = NAN, "newmark_gamma");
    REFUSED_WITH(newmark_gamma = INFINITY, "newmark_gamma");
    REFUSED_WITH(spectral_radius = -0.1, "spectral_radius");
    REFUSED_WITH(spectral_radius = 1.5, "spectral_radius");
    REFUSED_WITH(spectral_radius = NAN, "spectral_radius");
    REFUSED_WITH(modal_count = 0, "modal_count");
    REFUSED_WITH(modal_count = 201, "modal_count");
    REFUSED_WITH(modal_count = 0xFFFFFFFFu, "modal_count");
    REFUSED_WITH(semi_implicit = 2, "semi_implicit");
    REFUSED_WITH(semi_implicit = 0xFFFFFFFFu, "semi_implicit");
}

#undef CREATED_WITH
#undef REFUSED_WITH
