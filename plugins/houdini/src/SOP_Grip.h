/* The grip solver SOP: a verb SOP (SideFX's SOP_Star pattern) whose HDK layer only copies
 * geometry in and out; everything else is in core/ (plain C++, tested without Houdini).
 * SPDX-License-Identifier: MIT */

#ifndef GRIP_SOP_GRIP_H
#define GRIP_SOP_GRIP_H

#include <SOP/SOP_Node.h>
#include <UT/UT_StringHolder.h>

namespace grip_hdk {

/// The node: parameters from the embedded dialog script, cooking delegated to its verb.
class SOP_Grip : public SOP_Node {
public:
    static PRM_Template *buildTemplates();
    static OP_Node *myConstructor(OP_Network *net, const char *name, OP_Operator *op) {
        return new SOP_Grip(net, name, op);
    }
    /// The operator type name, "grip_solver".
    static const UT_StringHolder theSOPTypeName;

    const SOP_NodeVerb *cookVerb() const override;

    /// The "Clear Solver Cache" button: drops this node's solver from the registry.
    static int clearSolverCache(void *data, int index, fpreal time, const PRM_Template *);

protected:
    SOP_Grip(OP_Network *net, const char *name, OP_Operator *op);
    ~SOP_Grip() override;

    OP_ERROR cookMySop(OP_Context &context) override { return cookMyselfAsVerb(context); }
    const char *inputLabel(unsigned index) const override;
};

} // namespace grip_hdk

#endif
