/* Parameters of the grip SOP (see sop_parameters.hpp).
 * SPDX-License-Identifier: MIT */

#include "sop_parameters.hpp"

#include "sop_geometry.hpp"

#include <cmath>
#include <tuple>

namespace grip_sop {
namespace {

auto tie(const MaterialParameters &m) {
    return std::tie(m.density, m.youngs_modulus, m.poisson_ratio, m.thickness, m.bending_stiffness, m.damping_alpha,
                    m.damping_beta, m.membrane_model);
}

auto tie(const SopParameters &p) {
    return std::tie(p.start_time, p.time_step, p.substeps, p.integrator, p.newmark_beta, p.newmark_gamma,
                    p.spectral_radius, p.modal_count, p.semi_implicit, p.linear_solver, p.gravity,
                    p.max_newton_iterations, p.residual_tolerance, p.contact_thickness, p.friction,
                    p.friction_coupling, p.friction_epsilon, p.self_contact, p.self_contact_thickness,
                    p.collider_mesh_contact, p.failure_policy, p.type_attribute, p.name_attribute,
                    p.collider_clockwise_front, p.worker_count);
}

MaterialParameters from_c(const GripMaterial &m) {
    MaterialParameters out;
    out.density = m.density;
    out.youngs_modulus = m.youngs_modulus;
    out.poisson_ratio = m.poisson_ratio;
    out.thickness = m.thickness;
    out.bending_stiffness = m.bending_stiffness;
    out.damping_alpha = m.damping_alpha;
    out.damping_beta = m.damping_beta;
    out.membrane_model = m.membrane_model;
    return out;
}

} // namespace

bool SopParameters::operator==(const SopParameters &o) const {
    return tie(*this) == tie(o) && tie(shell) == tie(o.shell) && tie(solid) == tie(o.solid);
}

SopParameters default_parameters() {
    const GripSolverParams c = grip_solver_params_default();
    SopParameters p;
    p.start_time = 0;
    p.time_step = 1.0 / 24.0;
    p.substeps = 4;
    p.integrator = c.integrator;
    p.newmark_beta = c.newmark_beta;
    p.newmark_gamma = c.newmark_gamma;
    p.spectral_radius = c.spectral_radius;
    p.modal_count = c.modal_count;
    p.semi_implicit = c.semi_implicit != 0;
    p.linear_solver = c.linear_solver;
    p.gravity = {c.gravity[0], c.gravity[2], c.gravity[1]}; // Z up → Y up: (0, −9.81, 0)
    p.max_newton_iterations = c.max_newton_iterations;
    p.residual_tolerance = c.residual_tolerance;
    p.contact_thickness = c.contact_thickness;
    p.friction = c.default_friction;
    p.friction_coupling = c.friction_coupling;
    p.friction_epsilon = c.friction_epsilon;
    p.self_contact = c.self_contact != 0;
    p.self_contact_thickness = c.self_contact_thickness;
    p.collider_mesh_contact = c.collider_mesh_contact;
    p.failure_policy = GRIP_FAILURE_POLICY_CONTINUE;
    p.worker_count = c.worker_count;
    p.shell = from_c(grip_material_default());
    p.solid = from_c(grip_material_default());
    p.solid.density = 1100;
    p.solid.youngs_modulus = 1e6;
    p.solid.poisson_ratio = 0.45;
    p.type_attribute = "grip_type";
    p.name_attribute = "name";
    p.collider_clockwise_front = true;
    return p;
}

GripSolverParams solver_params(const SopParameters &p) {
    if (!(p.time_step > 0) || !std::isfinite(p.time_step)) {
        throw SopError("Time Step must be > 0 s");
    }
    if (p.substeps < 1) {
        throw SopError("Substeps must be at least 1");
    }
    GripSolverParams c = grip_solver_params_default();
    c.time_step = p.time_step / p.substeps;
    for (int k = 0; k < 3; ++k) c.gravity[k] = p.gravity[k];
    c.integrator = p.integrator;
    c.newmark_beta = p.newmark_beta;
    c.newmark_gamma = p.newmark_gamma;
    c.spectral_radius = p.spectral_radius;
    c.modal_count = p.modal_count;
    c.semi_implicit = p.semi_implicit ? 1u : 0u;
    c.linear_solver = p.linear_solver;
    c.max_newton_iterations = p.max_newton_iterations;
    c.residual_tolerance = p.residual_tolerance;
    c.contact_thickness = p.contact_thickness;
    c.default_friction = p.friction;
    c.friction_coupling = p.friction_coupling;
    c.friction_epsilon = p.friction_epsilon;
    c.self_contact = p.self_contact ? 1u : 0u;
    c.self_contact_thickness = p.self_contact_thickness;
    c.collider_mesh_contact = p.collider_mesh_contact;
    c.failure_policy = p.failure_policy;
    c.worker_count = p.worker_count;
    return c;
}

GripMaterial material(const MaterialParameters &m) {
    GripMaterial c = grip_material_default();
    c.density = m.density;
    c.youngs_modulus = m.youngs_modulus;
    c.poisson_ratio = m.poisson_ratio;
    c.thickness = m.thickness;
    c.bending_stiffness = m.bending_stiffness;
    c.damping_alpha = m.damping_alpha;
    c.damping_beta = m.damping_beta;
    c.membrane_model = m.membrane_model;
    return c;
}

} // namespace grip_sop
