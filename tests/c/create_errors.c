/* C API test of grip: every error path of grip_solver_create, grip_solver_add_shell and
 * grip_solver_add_solid. See check.h. */

#include "check.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Every way grip_solver_create can fail; *out_solver must be NULL afterwards. */
void test_create_errors(void) {
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
    EXPECT_BAD_PARAM(p.linear_solver = 3, "linear_solver");
    EXPECT_BAD_PARAM(p.preconditioner = 2, "preconditioner");
    EXPECT_BAD_PARAM(p.collider_mesh_contact = GRIP_COLLIDER_MESH_CONTACT_IMPLICIT + 1, "collider_mesh_contact");
    EXPECT_BAD_PARAM(p.max_linear_iterations = 0, "max_linear_iterations");
    EXPECT_BAD_PARAM(p.forcing_max = 1.0, "forcing_max");
    EXPECT_BAD_PARAM(p.forcing_max = NAN, "forcing_max");
    EXPECT_BAD_PARAM(p.self_contact = 2, "self_contact");
    EXPECT_BAD_PARAM(p.self_contact_thickness = 0.0, "self_contact_thickness");
    EXPECT_BAD_PARAM(p.self_contact_thickness = NAN, "self_contact_thickness");
    EXPECT_BAD_PARAM(p.linear_solver = 0xFFFFFFFFu, "linear_solver");
    EXPECT_BAD_PARAM(p.integrator = GRIP_INTEGRATOR_SIERE + 1, "integrator");
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
    p.collider_mesh_contact = GRIP_COLLIDER_MESH_CONTACT_IMPLICIT;
    EXPECT_OK(grip_solver_create(&p, &s));
    CHECK(s != NULL);
    grip_solver_destroy(s);
#undef EXPECT_BAD_PARAM
#undef EXPECT_CREATE_FAILS
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

void test_add_shell_errors(void) {
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

void test_add_solid_errors(void) {
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
void test_solid_ignores_shell_fields(void) {
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
