/* Declarations standing in for the parts of Houdini's HDK that plugins/houdini/src/SOP_Grip.C
 * uses, so that tests/houdini_sop.rs can compile the glue here (-fsyntax-only): it catches glue
 * that no longer matches the SOP core or the dialog script. The HDK itself is not available on
 * grip's machines; these stubs mirror the HDK signatures the glue relies on and are no proof
 * that the real HDK compiles it (see plugins/houdini/README.md).
 * SPDX-License-Identifier: MIT */

#ifndef GRIP_HDK_STUB_H
#define GRIP_HDK_STUB_H

#include <cstddef>
#include <cstdint>
#include <string>

typedef double fpreal;
typedef double fpreal64;
typedef std::int64_t exint;
typedef std::int64_t GA_Size;
typedef std::int64_t GA_Index;
typedef std::int64_t GA_Offset;
typedef int OP_ERROR;

class UT_StringHolder {
public:
    UT_StringHolder() = default;
    UT_StringHolder(const char *s) : s_(s) {}
    const char *c_str() const { return s_.c_str(); }
    bool isstring() const { return !s_.empty(); }
    std::string toStdString() const { return s_; }

private:
    std::string s_;
};
inline UT_StringHolder operator""_sh(const char *s, std::size_t) { return UT_StringHolder(s); }

template <class T>
class UT_Vector3T {
public:
    UT_Vector3T(T x, T y, T z) : v_{x, y, z} {}
    T x() const { return v_[0]; }
    T y() const { return v_[1]; }
    T z() const { return v_[2]; }

private:
    T v_[3];
};
typedef UT_Vector3T<double> UT_Vector3D;
typedef UT_Vector3T<float> UT_Vector3F;

class UT_AutoInterrupt {
public:
    explicit UT_AutoInterrupt(const char *) {}
    bool wasInterrupted(int percent = -1);
};

class CH_Manager {
public:
    fpreal getTime(fpreal sample) const;
};
CH_Manager *CHgetManager();

enum GA_AttributeOwner { GA_ATTRIB_VERTEX, GA_ATTRIB_POINT, GA_ATTRIB_PRIMITIVE, GA_ATTRIB_DETAIL };
enum GA_Storage { GA_STORE_INT64 };
enum GA_TypeInfo { GA_TYPE_VECTOR };
enum { GA_PRIMPOLY = 1, GA_PRIMTETRAHEDRON = 21 };
enum { SOP_MESSAGE = 0, SOP_ERR_BADGROUP = 1 };

class GA_Attribute;
class GA_AIFTuple {
public:
    int getTupleSize(const GA_Attribute *attrib) const;
    bool get(const GA_Attribute *attrib, GA_Offset offset, fpreal64 &value, int index) const;
};
class GA_Attribute {
public:
    const GA_AIFTuple *getAIFTuple() const;
    void setTypeInfo(GA_TypeInfo type);
    void bumpDataId();
};
class GA_Defaults {
public:
    explicit GA_Defaults(int value);
};
class GA_PrimitiveTypeId {
public:
    int get() const;
};
class GA_Primitive {
public:
    GA_PrimitiveTypeId getTypeId() const;
    GA_Size getVertexCount() const;
    GA_Offset getPointOffset(GA_Size vertex) const;
};
class GEO_PrimPoly : public GA_Primitive {
public:
    bool isClosed() const;
};
class GA_Range {};
class GA_Iterator {
public:
    explicit GA_Iterator(const GA_Range &range);
    bool atEnd() const;
    GA_Iterator &operator++();
    GA_Offset operator*() const;
};
class GA_PrimitiveGroup {
public:
    bool containsOffset(GA_Offset offset) const;
};
class GU_Detail {
public:
    GA_Size getNumPoints() const;
    GA_Size getNumPrimitives() const;
    GA_Range getPointRange() const;
    GA_Range getPrimitiveRange() const;
    GA_Index pointIndex(GA_Offset offset) const;
    GA_Index primitiveIndex(GA_Offset offset) const;
    UT_Vector3D getPos3D(GA_Offset offset) const;
    void setPos3(GA_Offset offset, const UT_Vector3D &p);
    const GA_Attribute *findPointAttribute(const char *name) const;
    const GA_Attribute *findIntTuple(GA_AttributeOwner owner, const char *name, int size) const;
    GA_Attribute *addFloatTuple(GA_AttributeOwner owner, const char *name, int size);
    GA_Attribute *addIntTuple(GA_AttributeOwner owner, const char *name, int size, const GA_Defaults &defaults,
                              const void *create_args, const void *attribute_options, GA_Storage storage);
    const GA_Primitive *getPrimitive(GA_Offset offset) const;
    GA_Attribute *getP();
};
class GA_ROHandleS {
public:
    GA_ROHandleS(const GU_Detail *gdp, GA_AttributeOwner owner, const char *name);
    bool isValid() const;
    UT_StringHolder get(GA_Offset offset) const;
};
class GA_ROHandleID {
public:
    explicit GA_ROHandleID(const GA_Attribute *attrib);
    bool isValid() const;
    std::int64_t get(GA_Offset offset) const;
};
class GA_RWHandleID {
public:
    explicit GA_RWHandleID(GA_Attribute *attrib);
    void set(GA_Offset offset, std::int64_t value);
    void bumpDataId();
};
class GA_RWHandleV3 {
public:
    explicit GA_RWHandleV3(GA_Attribute *attrib);
    GA_Attribute *operator->() const;
    void set(GA_Offset offset, const UT_Vector3F &value);
    void bumpDataId();
};
class GOP_Manager {
public:
    const GA_PrimitiveGroup *parsePrimitiveDetached(const char *pattern, const GU_Detail *gdp, bool force_existence,
                                                    bool &success);
};

class PRM_Template {};
class PRM_ChoiceList {};
typedef int (*PRM_Callback)(void *data, int index, fpreal time, const PRM_Template *);
class PRM_TemplateBuilder {
public:
    PRM_TemplateBuilder(const UT_StringHolder &file, const char *dialog_script);
    bool justBuilt() const;
    void setChoiceListPtr(const char *parm, PRM_ChoiceList *list);
    void setCallback(const char *parm, PRM_Callback callback);
    PRM_Template *templates();
};

class OP_Context {};
class OP_Network {};
class OP_Node;
class OP_Operator;
typedef OP_Node *(*OP_Constructor)(OP_Network *, const char *, OP_Operator *);
class OP_Operator {
public:
    OP_Operator(const UT_StringHolder &name, const char *label, OP_Constructor construct, PRM_Template *templates,
                unsigned min_inputs, unsigned max_inputs, void *variables, unsigned flags);
};
class OP_OperatorTable {
public:
    bool addOperator(OP_Operator *op);
};
class OP_Node {
public:
    virtual ~OP_Node();
    int getUniqueId() const;
};

class GU_DetailHandle {
public:
    GU_Detail *gdpNC() const;
};
class SOP_NodeParms {
public:
    virtual ~SOP_NodeParms();
};
class SOP_Node;
class SOP_NodeVerb {
public:
    enum CookMode { COOK_DUPLICATE, COOK_GENERATOR, COOK_GENERIC };
    class CookParms {
    public:
        template <class T>
        const T &parms() const;
        const GU_DetailHandle &gdh() const;
        const GU_Detail *inputGeo(int index) const;
        fpreal getCookTime() const;
        SOP_Node *getNode() const;
        void sopAddWarning(int code, const char *message) const;
        void sopAddError(int code, const char *message) const;
        void sopAddMessage(int code, const char *message) const;
    };
    template <class T>
    class Register {
    public:
        const T *get() const;
    };
    virtual ~SOP_NodeVerb();
    virtual SOP_NodeParms *allocParms() const = 0;
    virtual UT_StringHolder name() const = 0;
    virtual CookMode cookMode(const SOP_NodeParms *parms) const = 0;
    virtual void cook(const CookParms &cookparms) const = 0;
};
class SOP_Flags {
public:
    void setManagesDataIDs(bool on);
};
class SOP_Node : public OP_Node {
public:
    SOP_Node(OP_Network *net, const char *name, OP_Operator *op);
    virtual const SOP_NodeVerb *cookVerb() const;
    static PRM_ChoiceList primGroupMenu;

protected:
    virtual OP_ERROR cookMySop(OP_Context &context);
    OP_ERROR cookMyselfAsVerb(OP_Context &context);
    virtual const char *inputLabel(unsigned index) const;
    SOP_Flags mySopFlags;
};

#endif
