/* Parameters of the grip SOP and how they become grip's GripSolverParams and GripMaterial.
 * Everything here exists in grip.h: the integrator, linear-solver and collider-contact menus list
 * every value the C API accepts, in the order of their values (GRIP_INTEGRATOR_*,
 * GRIP_LINEAR_SOLVER_*, GRIP_COLLIDER_MESH_CONTACT_*, GRIP_FAILURE_POLICY_*). The volume-change penalty
 * (grip_solver_set_volume_penalty) is not a SOP parameter yet.
 * SPDX-License-Identifier: MIT */

#ifndef GRIP_SOP_PARAMETERS_HPP
#define GRIP_SOP_PARAMETERS_HPP

#include "grip.h"

#include <array>
#include <cstdint>
#include <string>

namespace grip_sop {

/// One material (SI units), as on the SOP's Shell and Solid tabs.
struct MaterialParameters {
    double density = 0;           ///< [kg/m³]
    double youngs_modulus = 0;    ///< E [Pa]
    double poisson_ratio = 0;     ///< ν
    double thickness = 0;         ///< [m], shells only
    double bending_stiffness = 0; ///< [N·m], shells only
    double damping_alpha = 0;     ///< Rayleigh mass damping [1/s]
    double damping_beta = 0;      ///< Rayleigh stiffness damping [s]
    std::uint32_t membrane_model = GRIP_MEMBRANE_NEO_HOOKEAN;
};

/// Every SOP parameter, in SI units. default_parameters() gives the dialog script's defaults.
struct SopParameters {
    double start_time = 0;    ///< time of the Start Frame [s]: at or before it the simulation resets
    double time_step = 0;     ///< Time Step [s]: the length of one frame (1/$FPS)
    int substeps = 0;         ///< Substeps per Time Step: grip's largest substep is time_step/substeps
    std::uint32_t integrator = GRIP_INTEGRATOR_BACKWARD_EULER;
    double newmark_beta = 0;             ///< β of Newmark, in (0, 1]
    double newmark_gamma = 0;            ///< γ of Newmark, in [0.5, 1]
    double spectral_radius = 0;          ///< ρ∞ of generalized-α, in [0, 1]
    std::uint32_t modal_count = 0;       ///< modes SIERE integrates exponentially, 1 to 200
    bool semi_implicit = false;          ///< every implicit stage takes one Newton iteration
    std::uint32_t linear_solver = GRIP_LINEAR_SOLVER_DIRECT_LU;
    std::array<double, 3> gravity{};     ///< [m/s²]; Houdini is Y up
    std::uint32_t max_newton_iterations = 0;
    double residual_tolerance = 0;       ///< relative Newton tolerance
    double contact_thickness = 0;        ///< δ [m]
    double friction = 0;                 ///< μ, times the bodies' friction attributes
    std::uint32_t friction_coupling = GRIP_FRICTION_COUPLING_IMPLICIT;
    double friction_epsilon = 0;         ///< stick–slip velocity [m/s]
    bool self_contact = false;           ///< shells repel themselves and each other
    double self_contact_thickness = 0;   ///< δ_s [m] of self-contact
    /// How shells and solids meet input 2's collider meshes (Collider Contact):
    /// GRIP_COLLIDER_MESH_CONTACT_EXACT ("Exact Distance", the default), the mesh's own faces,
    /// edges, corners and open rims at the contact thickness whatever the triangles' size or
    /// shape (low-poly proxies, large flat faces); GRIP_COLLIDER_MESH_CONTACT_IMPLICIT
    /// ("Smooth Surface"), an MLS implicit surface fitted to the triangles.
    std::uint32_t collider_mesh_contact = GRIP_COLLIDER_MESH_CONTACT_EXACT;
    /// On a Hard Frame: GRIP_FAILURE_POLICY_CONTINUE ("Continue with a Fallback", the default),
    /// a substep that still fails after its last halving falls back to lagged friction, no
    /// friction, then Newton's best iterate, and the cook goes on with a warning naming the
    /// object and the place (fallback_warning.hpp); GRIP_FAILURE_POLICY_STRICT ("Stop"), the
    /// cook fails and the simulation stays at the last frame.
    std::uint32_t failure_policy = GRIP_FAILURE_POLICY_CONTINUE;
    MaterialParameters shell;            ///< material of every shell
    MaterialParameters solid;            ///< material of every solid
    std::string type_attribute;          ///< primitive string attribute: "solid" / "shell"
    std::string name_attribute;          ///< primitive string attribute: one object per value
    bool collider_clockwise_front = true; ///< input 2 uses Houdini's winding (see collider_input.hpp)
    std::uint32_t worker_count = 0;      ///< threads (0 = all cores)

    bool operator==(const SopParameters &o) const;
    bool operator!=(const SopParameters &o) const { return !(*this == o); }
};

/// The defaults: grip_solver_params_default() and grip_material_default() except gravity
/// (0, −9.81, 0) for Houdini's Y up, 24 fps with 4 substeps (1/96 s, about the C default 1/240 s
/// for cloth at film rates), a rubber-like solid (1100 kg/m³, E = 1 MPa, ν = 0.45), and the
/// failure policy Continue (a simulation goes on past a hard frame, as grip run does).
SopParameters default_parameters();

/// The solver parameters: the C defaults with every SOP parameter applied. Throws SopError for a
/// time step ≤ 0 or fewer than 1 substep (grip_solver_create checks the rest).
GripSolverParams solver_params(const SopParameters &p);

/// A GripMaterial: grip_material_default() with `m` applied.
GripMaterial material(const MaterialParameters &m);

} // namespace grip_sop

#endif
