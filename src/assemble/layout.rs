//! The linear-system layout of a model: the block pattern and, per element, where each of its
//! blocks lives. Built when objects are added, reused by every step.

use crate::energy::Element;
use crate::model::Model;
use crate::solve::linear_solver::{LinearSolver, LinearSolverKind};
use crate::solve::pattern::{BlockPattern, BlockSlot};
use crate::solve::preconditioner::Preconditioner;
use crate::solve::DirectLu;

/// Pattern and element slots of a model.
pub struct SystemLayout {
    /// The block pattern.
    pub pattern: BlockPattern,
    /// The pattern of the element couplings alone (the iterative solver's Cholesky
    /// preconditioner); `None` when it equals `pattern` (no contact stencils).
    pub element_pattern: Option<BlockPattern>,
    /// Slots of each tet (16 per element, row-major vertex pairs).
    pub tet_slots: Vec<BlockSlot>,
    /// Slots of each membrane triangle (9 per element).
    pub membrane_slots: Vec<BlockSlot>,
    /// Slots of each hinge (16 per element).
    pub hinge_slots: Vec<BlockSlot>,
    /// Diagonal block of each vertex.
    pub diagonal_slots: Vec<BlockSlot>,
}

fn slots_of<const D: usize, E: Element<D>>(pattern: &BlockPattern, elements: &[E]) -> Vec<BlockSlot> {
    elements.iter().flat_map(|e| pattern.stencil_slots(e.vertices())).collect()
}

impl SystemLayout {
    /// Analyses the coupling of the model's elements and of the given contact stencils (groups
    /// of vertices that a contact couples, e.g. from `SurfaceTerms::stencils`).
    pub fn new(model: &Model, contacts: &[Vec<u32>]) -> Self {
        let stencils = model
            .tets
            .elements
            .iter()
            .map(|e| e.vertices())
            .chain(model.membranes.elements.iter().map(|e| e.vertices()))
            .chain(model.hinges.elements.iter().map(|e| e.vertices()))
            .chain(contacts.iter().map(|c| c.as_slice()));
        let pattern = BlockPattern::new(model.vertex_count(), stencils);
        let element_pattern = (!contacts.is_empty()).then(|| {
            let elements = model
                .tets
                .elements
                .iter()
                .map(|e| e.vertices())
                .chain(model.membranes.elements.iter().map(|e| e.vertices()))
                .chain(model.hinges.elements.iter().map(|e| e.vertices()));
            BlockPattern::new(model.vertex_count(), elements)
        });
        let diagonal_slots = (0..model.vertex_count() as u32)
            .map(|v| pattern.slot(v, v).unwrap_or(BlockSlot { start: u32::MAX, stride: 0 }))
            .collect();
        Self {
            tet_slots: slots_of(&pattern, &model.tets.elements),
            membrane_slots: slots_of(&pattern, &model.membranes.elements),
            hinge_slots: slots_of(&pattern, &model.hinges.elements),
            diagonal_slots,
            pattern,
            element_pattern,
        }
    }

    /// The element-coupling pattern (see `element_pattern`).
    pub fn elements(&self) -> &BlockPattern {
        self.element_pattern.as_ref().unwrap_or(&self.pattern)
    }

    /// A linear solver for this layout as `params` select, reusing what still fits of
    /// `previous`, the solver of an earlier layout of the same model (the symbolic analysis of
    /// the element couplings, which do not change with the contacts).
    pub fn linear_solver(
        &self,
        params: &crate::model::SolverParams,
        previous: Option<LinearSolver>,
    ) -> crate::Result<LinearSolver> {
        if params.linear_solver == LinearSolverKind::Iterative
            || params.linear_solver == LinearSolverKind::IterativeMatrixFree
        {
            let preconditioner = match previous {
                Some(LinearSolver::Iterative { preconditioner, .. }) => {
                    preconditioner.for_pattern(params.preconditioner, &self.pattern, self.elements())?
                }
                _ => Preconditioner::new(params.preconditioner, &self.pattern, self.elements())?,
            };
            Ok(LinearSolver::Iterative {
                preconditioner,
                max_iterations: params.max_linear_iterations,
                matrix_free: params.linear_solver == LinearSolverKind::IterativeMatrixFree,
            })
        } else {
            Ok(LinearSolver::Direct(DirectLu::new(&self.pattern)?))
        }
    }

    /// Whether every block coupling two vertices of one of `contacts` is in the pattern.
    pub fn covers(&self, contacts: &[Vec<u32>]) -> bool {
        contacts.iter().all(|c| c.iter().all(|&a| c.iter().all(|&b| self.pattern.slot(a, b).is_some())))
    }
}
