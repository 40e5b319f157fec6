// Kind names for debugging output; the deletion of nodes without recursion.
#include "ir/object.h"

#include <cstring>

namespace relax::ir {

namespace {
// The nodes freed while a deletion is under way on this thread, deleted by the outermost call:
// a list linked through the dead nodes' spans (a node whose count fell to zero is never read
// again, and its destructor does not read the span). Plain pointers, so that statics freed at
// exit, after the thread's own objects are gone, still find the list; per thread, as reference
// counts are, since trees are freed on worker threads too.
thread_local const Object* pending_head = nullptr;
thread_local bool deleting = false;
static_assert(sizeof(Span) >= sizeof(const Object*));

void set_next(const Object* node, const Object* next) {
  std::memcpy(static_cast<void*>(&const_cast<Object*>(node)->span), &next, sizeof next);
}
const Object* next_of(const Object* node) {
  const Object* next;
  std::memcpy(&next, static_cast<const void*>(&node->span), sizeof next);
  return next;
}
}  // namespace

void Object::destroy(const Object* node) {
  if (deleting) {
    set_next(node, pending_head);
    pending_head = node;
    return;
  }
  deleting = true;
  delete node;
  while (pending_head) {
    const Object* next = pending_head;
    pending_head = next_of(next);
    delete next;
  }
  deleting = false;
}

const char* kind_name(ObjectKind kind) {
  switch (kind) {
    case ObjectKind::kString:
      return "String";
    case ObjectKind::kBool:
      return "Bool";
    case ObjectKind::kInt:
      return "Int";
    case ObjectKind::kFloat:
      return "Float";
    case ObjectKind::kArray:
      return "Array";
    case ObjectKind::kMap:
      return "Map";
    case ObjectKind::kObjectStructInfo:
      return "ObjectStructInfo";
    case ObjectKind::kPrimStructInfo:
      return "PrimStructInfo";
    case ObjectKind::kShapeStructInfo:
      return "ShapeStructInfo";
    case ObjectKind::kTensorStructInfo:
      return "TensorStructInfo";
    case ObjectKind::kTupleStructInfo:
      return "TupleStructInfo";
    case ObjectKind::kFuncStructInfo:
      return "FuncStructInfo";
    case ObjectKind::kStructInfoOf:
      return "StructInfoOf";
    case ObjectKind::kVar:
      return "Var";
    case ObjectKind::kDataflowVar:
      return "DataflowVar";
    case ObjectKind::kGlobalVar:
      return "GlobalVar";
    case ObjectKind::kConstant:
      return "Constant";
    case ObjectKind::kTuple:
      return "Tuple";
    case ObjectKind::kTupleGetItem:
      return "TupleGetItem";
    case ObjectKind::kCall:
      return "Call";
    case ObjectKind::kIf:
      return "If";
    case ObjectKind::kSeqExpr:
      return "SeqExpr";
    case ObjectKind::kFunction:
      return "Function";
    case ObjectKind::kExternFunc:
      return "ExternFunc";
    case ObjectKind::kShapeExpr:
      return "ShapeExpr";
    case ObjectKind::kPrimValue:
      return "PrimValue";
    case ObjectKind::kStringImm:
      return "StringImm";
    case ObjectKind::kDataTypeImm:
      return "DataTypeImm";
    case ObjectKind::kOp:
      return "Op";
    case ObjectKind::kVarBinding:
      return "VarBinding";
    case ObjectKind::kMatchCast:
      return "MatchCast";
    case ObjectKind::kBindingBlock:
      return "BindingBlock";
    case ObjectKind::kTirVar:
      return "tir.Var";
    case ObjectKind::kIntImm:
      return "IntImm";
    case ObjectKind::kFloatImm:
      return "FloatImm";
    case ObjectKind::kTirStringImm:
      return "tir.StringImm";
    case ObjectKind::kCast:
      return "Cast";
    case ObjectKind::kAdd:
      return "Add";
    case ObjectKind::kSub:
      return "Sub";
    case ObjectKind::kMul:
      return "Mul";
    case ObjectKind::kDiv:
      return "Div";
    case ObjectKind::kMod:
      return "Mod";
    case ObjectKind::kFloorDiv:
      return "FloorDiv";
    case ObjectKind::kFloorMod:
      return "FloorMod";
    case ObjectKind::kMin:
      return "Min";
    case ObjectKind::kMax:
      return "Max";
    case ObjectKind::kEQ:
      return "EQ";
    case ObjectKind::kNE:
      return "NE";
    case ObjectKind::kLT:
      return "LT";
    case ObjectKind::kLE:
      return "LE";
    case ObjectKind::kGT:
      return "GT";
    case ObjectKind::kGE:
      return "GE";
    case ObjectKind::kAnd:
      return "And";
    case ObjectKind::kOr:
      return "Or";
    case ObjectKind::kNot:
      return "Not";
    case ObjectKind::kSelect:
      return "Select";
    case ObjectKind::kBufferLoad:
      return "BufferLoad";
    case ObjectKind::kRamp:
      return "Ramp";
    case ObjectKind::kBroadcast:
      return "Broadcast";
    case ObjectKind::kShuffle:
      return "Shuffle";
    case ObjectKind::kLet:
      return "Let";
    case ObjectKind::kTirCall:
      return "tir.Call";
    case ObjectKind::kReduce:
      return "Reduce";
    case ObjectKind::kLetStmt:
      return "LetStmt";
    case ObjectKind::kAttrStmt:
      return "AttrStmt";
    case ObjectKind::kAssertStmt:
      return "AssertStmt";
    case ObjectKind::kBufferStore:
      return "BufferStore";
    case ObjectKind::kBufferRealize:
      return "BufferRealize";
    case ObjectKind::kAllocate:
      return "Allocate";
    case ObjectKind::kDeclBuffer:
      return "DeclBuffer";
    case ObjectKind::kSeqStmt:
      return "SeqStmt";
    case ObjectKind::kIfThenElse:
      return "IfThenElse";
    case ObjectKind::kEvaluate:
      return "Evaluate";
    case ObjectKind::kFor:
      return "For";
    case ObjectKind::kWhile:
      return "While";
    case ObjectKind::kBlock:
      return "Block";
    case ObjectKind::kBlockRealize:
      return "BlockRealize";
    case ObjectKind::kBuffer:
      return "Buffer";
    case ObjectKind::kRange:
      return "Range";
    case ObjectKind::kIterVar:
      return "IterVar";
    case ObjectKind::kBufferRegion:
      return "BufferRegion";
    case ObjectKind::kMatchBufferRegion:
      return "MatchBufferRegion";
    case ObjectKind::kIndexMap:
      return "IndexMap";
    case ObjectKind::kCommReducer:
      return "CommReducer";
    case ObjectKind::kPrimFunc:
      return "PrimFunc";
    case ObjectKind::kIRModule:
      return "IRModule";
    case ObjectKind::kTarget:
      return "Target";
    case ObjectKind::kVDevice:
      return "VDevice";
    case ObjectKind::kDummyGlobalInfo:
      return "DummyGlobalInfo";
    case ObjectKind::kOpaqueCall:
      return "OpaqueCall";
  }
  return "?";
}

}  // namespace relax::ir
