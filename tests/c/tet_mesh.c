/* C API test of grip: the tet mesher. grip_tetrahedralize fills a cube surface with positive
 * tets of the cube's volume that a solver accepts and steps; then every error path of
 * grip_tetrahedralize, grip_tet_mesh_sizes, grip_tet_mesh_get and grip_tet_mesh_destroy: each
 * failing call returns its status, names the problem, leaves *out_mesh NULL and writes nothing
 * into the host's arrays. See check.h. */

#include "check.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void test_tet_mesh(void);

#define SIDE 0.2 /* cube side [m] */

/* A box of side SIDE with lowest corner `lo` as 12 outward triangles, appended at vertex `first`;
 * corner v = x + 2y + 4z. */
static void box_surface(const double lo[3], uint32_t first, double *x, uint32_t *t) {
    static const uint32_t faces[36] = {0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4,
                                       2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5};
    for (int v = 0; v < 8; v++)
        for (int k = 0; k < 3; k++) x[3 * v + k] = lo[k] + (((v >> k) & 1) ? SIDE : 0.0);
    for (int i = 0; i < 36; i++) t[i] = faces[i] + first;
}

/* The mesh's arrays, read back through the count-then-fill calls. */
static int read_mesh(const GripTetMesh *mesh, double **x, size_t *nv, uint32_t **t, size_t *nt) {
    if (grip_tet_mesh_sizes(mesh, nv, nt) != GRIP_STATUS_OK) return 0;
    *x = malloc(3 * *nv * sizeof(double));
    *t = malloc(4 * *nt * sizeof(uint32_t));
    return *x && *t && grip_tet_mesh_get(mesh, *x, *nv, *t, *nt) == GRIP_STATUS_OK;
}

static void test_cube_is_filled(const double *x, const uint32_t *t, GripTetMesh **out) {
    GripTetMesh *mesh = NULL;
    EXPECT_OK(grip_tetrahedralize(x, 8, t, 12, 0.04, &mesh));
    CHECK(mesh != NULL);
    double *px = NULL;
    uint32_t *pt = NULL;
    size_t nv = 0, nt = 0;
    CHECK(read_mesh(mesh, &px, &nv, &pt, &nt));
    CHECK(nv > 8 && nt > 100);
    int in_range = 1, positive = 1, inside = 1;
    double volume = 0.0;
    for (size_t i = 0; i < nt; i++) {
        for (int k = 0; k < 4; k++) in_range &= pt[4 * i + k] < nv;
        if (!in_range) break;
        double d = tet_det(px, &pt[4 * i]);
        positive &= d > 0.0;
        volume += d / 6.0;
    }
    for (size_t i = 0; i < 3 * nv; i++) inside &= px[i] > -1e-12 && px[i] < SIDE + 1e-12;
    CHECK(in_range);
    CHECK(positive);
    CHECK(inside);
    /* The cube's faces lie on lattice planes (0.2 m = 5 cells), so it is filled exactly. */
    CHECK_MSG(fabs(volume - SIDE * SIDE * SIDE) < 1e-12, "volume of the cube mesh");

    /* A solver takes it as a solid and steps it. */
    GripSolverParams params = grip_solver_params_default();
    GripSolver *s = NULL;
    EXPECT_OK(grip_solver_create(&params, &s));
    GripMaterial rubber = grip_material_default();
    rubber.density = 1100.0;
    rubber.youngs_modulus = 1e6;
    rubber.poisson_ratio = 0.45;
    GripObjectId id = 0;
    EXPECT_OK(grip_solver_add_solid(s, px, nv, pt, nt, &rubber, &id));
    EXPECT_OK(grip_solver_advance(s, 0.02));
    EXPECT_OK(grip_solver_get_positions(s, id, px, nv));
    CHECK(all_finite(px, 3 * nv));
    grip_solver_destroy(s);
    free(px);
    free(pt);
    *out = mesh;
}

/* Every way grip_tetrahedralize can fail; *out_mesh must be NULL afterwards. */
static void test_tetrahedralize_errors(double *x, uint32_t *t) {
    static int not_a_mesh;
    GripTetMesh *out;
#define EXPECT_MESH_FAILS(call, want, substring)       \
    do {                                               \
        out = (GripTetMesh *)(void *)&not_a_mesh;      \
        EXPECT_STATUS(call, want, substring);          \
        CHECK(out == NULL);                            \
    } while (0)

    EXPECT_MESH_FAILS(grip_tetrahedralize(NULL, 8, t, 12, 0.04, &out), GRIP_STATUS_NULL_POINTER, "positions");
    EXPECT_MESH_FAILS(grip_tetrahedralize(x, 8, NULL, 12, 0.04, &out), GRIP_STATUS_NULL_POINTER, "triangles");
    EXPECT_STATUS(grip_tetrahedralize(x, 8, t, 12, 0.04, NULL), GRIP_STATUS_NULL_POINTER, "out_mesh");
    EXPECT_MESH_FAILS(grip_tetrahedralize(x, 0, t, 12, 0.04, &out), GRIP_STATUS_INVALID_ARGUMENT, "vertex_count");
    EXPECT_MESH_FAILS(grip_tetrahedralize(x, 8, t, 0, 0.04, &out), GRIP_STATUS_INVALID_ARGUMENT, "triangle_count");
    EXPECT_MESH_FAILS(grip_tetrahedralize(x, SIZE_MAX, t, 12, 0.04, &out), GRIP_STATUS_INVALID_ARGUMENT, "too large");
    EXPECT_MESH_FAILS(grip_tetrahedralize(x, 8, t, SIZE_MAX / 2, 0.04, &out), GRIP_STATUS_INVALID_ARGUMENT,
                      "too large");
    EXPECT_MESH_FAILS(grip_tetrahedralize((const double *)(uintptr_t)((uintptr_t)x + 4), 8, t, 12, 0.04, &out),
                      GRIP_STATUS_INVALID_ARGUMENT, "aligned");
    static const double bad_cells[] = {0.0, -0.04, NAN, INFINITY};
    for (int i = 0; i < 4; i++) {
        char what[96];
        snprintf(what, sizeof what, "grip_tetrahedralize with cell_size %g", bad_cells[i]);
        out = (GripTetMesh *)(void *)&not_a_mesh;
        expect_status(__FILE__, __LINE__, what, grip_tetrahedralize(x, 8, t, 12, bad_cells[i], &out),
                      GRIP_STATUS_INVALID_ARGUMENT, "cell_size");
        CHECK(out == NULL);
    }
    EXPECT_MESH_FAILS(grip_tetrahedralize(x, 8, t, 12, 1e-5, &out), GRIP_STATUS_INVALID_ARGUMENT,
                      "too many lattice cells");

    /* Broken surfaces: open, out of range, not finite, flipped. */
    EXPECT_MESH_FAILS(grip_tetrahedralize(x, 8, t, 11, 0.04, &out), GRIP_STATUS_INVALID_MESH, "not closed");
    uint32_t saved = t[16];
    t[16] = 8;
    EXPECT_MESH_FAILS(grip_tetrahedralize(x, 8, t, 12, 0.04, &out), GRIP_STATUS_INVALID_MESH, "refers to vertex 8");
    t[16] = saved;
    double saved_x = x[3 * 6 + 1];
    x[3 * 6 + 1] = NAN;
    EXPECT_MESH_FAILS(grip_tetrahedralize(x, 8, t, 12, 0.04, &out), GRIP_STATUS_INVALID_MESH, "not finite");
    x[3 * 6 + 1] = saved_x;
    uint32_t tmp = t[4];
    t[4] = t[5];
    t[5] = tmp;
    EXPECT_MESH_FAILS(grip_tetrahedralize(x, 8, t, 12, 0.04, &out), GRIP_STATUS_INVALID_MESH,
                      "not consistently oriented");
    t[5] = t[4];
    t[4] = tmp;

    /* Two cubes: overlapping (self-intersecting), then sharing one edge (non-manifold). */
    double x2[48];
    uint32_t t2[72];
    const double origin[3] = {0.0, 0.0, 0.0}, overlap[3] = {0.1, 0.1, 0.1}, by_edge[3] = {SIDE, SIDE, 0.0};
    box_surface(origin, 0, x2, t2);
    box_surface(overlap, 8, x2 + 24, t2 + 36);
    EXPECT_MESH_FAILS(grip_tetrahedralize(x2, 16, t2, 24, 0.04, &out), GRIP_STATUS_INVALID_MESH, "intersects itself");
    box_surface(by_edge, 8, x2 + 24, t2 + 36);
    for (int i = 36; i < 72; i++) t2[i] = t2[i] == 8 ? 3 : t2[i] == 12 ? 7 : t2[i]; /* weld corners 3, 7 */
    EXPECT_MESH_FAILS(grip_tetrahedralize(x2, 16, t2, 24, 0.04, &out), GRIP_STATUS_INVALID_MESH, "not manifold");
#undef EXPECT_MESH_FAILS
}

/* Error paths of the handle calls; the host's arrays are never written by a failing call. */
static void test_handle_errors(GripTetMesh *mesh) {
    static int not_a_mesh;
    GripTetMesh *foreign = (GripTetMesh *)(void *)&not_a_mesh;
    size_t nv = 77, nt = 88;
    EXPECT_STATUS(grip_tet_mesh_sizes(NULL, &nv, &nt), GRIP_STATUS_NULL_POINTER, "mesh");
    EXPECT_STATUS(grip_tet_mesh_sizes(mesh, NULL, &nt), GRIP_STATUS_NULL_POINTER, "out_vertex_count");
    EXPECT_STATUS(grip_tet_mesh_sizes(mesh, &nv, NULL), GRIP_STATUS_NULL_POINTER, "out_tet_count");
    EXPECT_STATUS(grip_tet_mesh_sizes(foreign, &nv, &nt), GRIP_STATUS_INVALID_ARGUMENT, "live handle");
    CHECK(nv == 77 && nt == 88);
    EXPECT_OK(grip_tet_mesh_sizes(mesh, &nv, &nt));

    double *px = malloc(3 * (nv + 1) * sizeof(double));
    uint32_t *pt = malloc(4 * (nt + 1) * sizeof(uint32_t));
    if (!px || !pt) {
        CHECK_MSG(0, "out of memory");
        free(px);
        free(pt);
        return;
    }
    for (size_t i = 0; i < 3 * (nv + 1); i++) px[i] = -12345.0;
    for (size_t i = 0; i < 4 * (nt + 1); i++) pt[i] = 0xDEADBEEFu;
    EXPECT_STATUS(grip_tet_mesh_get(NULL, px, nv, pt, nt), GRIP_STATUS_NULL_POINTER, "mesh");
    EXPECT_STATUS(grip_tet_mesh_get(foreign, px, nv, pt, nt), GRIP_STATUS_INVALID_ARGUMENT, "live handle");
    EXPECT_STATUS(grip_tet_mesh_get(mesh, px, nv - 1, pt, nt), GRIP_STATUS_INVALID_ARGUMENT, "vertex_count");
    EXPECT_STATUS(grip_tet_mesh_get(mesh, px, nv + 1, pt, nt), GRIP_STATUS_INVALID_ARGUMENT, "vertex_count");
    EXPECT_STATUS(grip_tet_mesh_get(mesh, px, nv, pt, nt + 1), GRIP_STATUS_INVALID_ARGUMENT, "tet_count");
    EXPECT_STATUS(grip_tet_mesh_get(mesh, NULL, nv, pt, nt), GRIP_STATUS_NULL_POINTER, "out_positions");
    EXPECT_STATUS(grip_tet_mesh_get(mesh, px, nv, NULL, nt), GRIP_STATUS_NULL_POINTER, "out_tets");
    EXPECT_STATUS(grip_tet_mesh_get(mesh, (double *)(uintptr_t)((uintptr_t)px + 4), nv, pt, nt),
                  GRIP_STATUS_INVALID_ARGUMENT, "aligned");
    int untouched = 1;
    for (size_t i = 0; i < 3 * (nv + 1); i++) untouched &= px[i] == -12345.0;
    for (size_t i = 0; i < 4 * (nt + 1); i++) untouched &= pt[i] == 0xDEADBEEFu;
    CHECK_MSG(untouched, "a failing grip_tet_mesh_get wrote into the host's arrays");
    EXPECT_OK(grip_tet_mesh_get(mesh, px, nv, pt, nt));
    CHECK(px[3 * nv] == -12345.0 && pt[4 * nt] == 0xDEADBEEFu); /* nothing past the stated counts */

    /* Destroying: NULL and foreign handles are ignored; a destroyed handle is refused after. */
    grip_tet_mesh_destroy(NULL);
    grip_tet_mesh_destroy(foreign);
    grip_tet_mesh_destroy(mesh);
    EXPECT_STATUS(grip_tet_mesh_sizes(mesh, &nv, &nt), GRIP_STATUS_INVALID_ARGUMENT, "live handle");
    EXPECT_STATUS(grip_tet_mesh_get(mesh, px, nv, pt, nt), GRIP_STATUS_INVALID_ARGUMENT, "live handle");
    grip_tet_mesh_destroy(mesh);
    free(px);
    free(pt);
}

void test_tet_mesh(void) {
    double x[24];
    uint32_t t[36];
    const double origin[3] = {0.0, 0.0, 0.0};
    box_surface(origin, 0, x, t);
    GripTetMesh *mesh = NULL;
    test_cube_is_filled(x, t, &mesh);
    test_tetrahedralize_errors(x, t);
    if (mesh) test_handle_errors(mesh);
}
