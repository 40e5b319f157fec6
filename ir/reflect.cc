// The field lists of every node kind, in one switch.
#include "ir/reflect.h"

#include <cmath>

#include "ir/expr.h"
#include "ir/module.h"
#include "ir/tir.h"

namespace relax::ir {

bool is_binding_node(const Object& node) {
  switch (node.kind()) {
    case ObjectKind::kVar:
    case ObjectKind::kDataflowVar:
    case ObjectKind::kTirVar:
    case ObjectKind::kBuffer:
      return true;
    default:
      return false;
  }
}

namespace {

void reflect_buffer(const tir::Buffer& b, FieldVisitor& v) {
  v.child(b.data);
  v.value(b.dtype);
  v.children(b.shape);
  v.children(b.strides);
  v.child(b.elem_offset);
  v.value(static_cast<int64_t>(b.data_alignment));
  v.value(static_cast<int64_t>(b.offset_factor));
  v.value(static_cast<int64_t>(b.buffer_type));
  v.value(static_cast<int64_t>(b.axis_separators.size()));
  for (int64_t s : b.axis_separators) v.value(s);
}

}  // namespace

void reflect_fields(const Object& node, FieldVisitor& v) {
  using K = ObjectKind;
  switch (node.kind()) {
    case K::kString:
      v.value(std::string_view(static_cast<const StringValue&>(node).value));
      return;
    case K::kBool:
      v.value(static_cast<const BoolValue&>(node).value);
      return;
    case K::kInt:
      v.value(static_cast<const IntValue&>(node).value);
      return;
    case K::kFloat:
      v.value(static_cast<const FloatValue&>(node).value);
      return;
    case K::kArray:
      v.children(static_cast<const ArrayValue&>(node).items);
      return;
    case K::kMap: {
      const auto& m = static_cast<const MapValue&>(node);
      v.value(static_cast<int64_t>(m.entries.size()));
      for (const auto& [key, val] : m.entries) {
        v.child(key);
        v.child(val);
      }
      return;
    }
    case K::kObjectStructInfo:
      return;
    case K::kPrimStructInfo: {
      const auto& s = static_cast<const PrimStructInfo&>(node);
      v.value(s.dtype);
      v.child(s.value);
      return;
    }
    case K::kShapeStructInfo: {
      const auto& s = static_cast<const ShapeStructInfo&>(node);
      v.value(static_cast<int64_t>(s.ndim));
      v.value(s.values.has_value());
      if (s.values) v.children(*s.values);
      return;
    }
    case K::kTensorStructInfo: {
      const auto& s = static_cast<const TensorStructInfo&>(node);
      v.child(s.shape);
      v.value(s.dtype);
      v.value(static_cast<int64_t>(s.ndim));
      v.child(s.vdevice);
      return;
    }
    case K::kTupleStructInfo:
      v.children(static_cast<const TupleStructInfo&>(node).fields);
      return;
    case K::kFuncStructInfo: {
      const auto& s = static_cast<const FuncStructInfo&>(node);
      v.value(s.params.has_value());
      if (s.params) v.children(*s.params);
      v.child(s.ret);
      v.value(s.purity);
      v.value(std::string_view(s.derive_func));
      return;
    }
    case K::kStructInfoOf:
      v.child(static_cast<const StructInfoOf&>(node).expr);
      return;
    case K::kVar:
    case K::kDataflowVar:
      v.child(static_cast<const Var&>(node).struct_info);
      return;
    case K::kGlobalVar:
      v.value(std::string_view(static_cast<const GlobalVar&>(node).name));
      return;
    case K::kConstant: {
      const auto& c = static_cast<const Constant&>(node);
      v.value(c.data != nullptr);
      if (c.data) {
        v.value(c.data->dtype);
        v.value(static_cast<int64_t>(c.data->shape.size()));
        for (int64_t d : c.data->shape) v.value(d);
        v.value(std::string_view(reinterpret_cast<const char*>(c.data->bytes.data()),
                                 c.data->bytes.size()));
      } else {
        v.value(static_cast<int64_t>(c.metadata_index));
        v.child(c.struct_info);
      }
      return;
    }
    case K::kTuple:
      v.children(static_cast<const Tuple&>(node).fields);
      return;
    case K::kTupleGetItem: {
      const auto& t = static_cast<const TupleGetItem&>(node);
      v.child(t.tuple);
      v.value(static_cast<int64_t>(t.index));
      return;
    }
    case K::kCall: {
      const auto& c = static_cast<const Call&>(node);
      v.child(c.op);
      v.children(c.args);
      v.attrs(c.attrs);
      v.children(c.sinfo_args);
      return;
    }
    case K::kIf: {
      const auto& i = static_cast<const If&>(node);
      v.child(i.condition);
      v.child(i.true_branch);
      v.child(i.false_branch);
      return;
    }
    case K::kSeqExpr: {
      const auto& s = static_cast<const SeqExpr&>(node);
      v.children(s.blocks);
      v.child(s.body);
      return;
    }
    case K::kFunction: {
      const auto& f = static_cast<const Function&>(node);
      v.children(f.params);
      v.child(f.body);
      v.child(f.ret_struct_info);
      v.value(f.is_pure);
      v.attrs(f.attrs);
      return;
    }
    case K::kExternFunc:
      v.value(std::string_view(static_cast<const ExternFunc&>(node).global_symbol));
      return;
    case K::kShapeExpr:
      v.children(static_cast<const ShapeExpr&>(node).values);
      return;
    case K::kPrimValue:
      v.child(static_cast<const PrimValue&>(node).value);
      return;
    case K::kStringImm:
      v.value(std::string_view(static_cast<const StringImm&>(node).value));
      return;
    case K::kDataTypeImm:
      v.value(static_cast<const DataTypeImm&>(node).value);
      return;
    case K::kOp:
      v.value(std::string_view(static_cast<const Op&>(node).name));
      return;
    case K::kVarBinding: {
      const auto& b = static_cast<const VarBinding&>(node);
      v.child(b.var);
      v.child(b.value);
      return;
    }
    case K::kMatchCast: {
      const auto& b = static_cast<const MatchCast&>(node);
      v.child(b.var);
      v.child(b.value);
      v.child(b.struct_info);
      return;
    }
    case K::kBindingBlock: {
      const auto& b = static_cast<const BindingBlock&>(node);
      v.value(b.is_dataflow);
      v.children(b.bindings);
      return;
    }
    case K::kTirVar: {
      const auto& x = static_cast<const tir::Var&>(node);
      v.value(x.dtype);
      v.value(x.is_size_var);
      v.value(x.pointer.has_value());
      if (x.pointer) {
        v.value(x.pointer->element);
        v.value(std::string_view(x.pointer->storage_scope));
      }
      return;
    }
    case K::kIntImm: {
      const auto& x = static_cast<const tir::IntImm&>(node);
      v.value(x.dtype);
      v.value(x.value);
      return;
    }
    case K::kFloatImm: {
      const auto& x = static_cast<const tir::FloatImm&>(node);
      v.value(x.dtype);
      v.value(x.value);
      return;
    }
    case K::kTirStringImm:
      v.value(std::string_view(static_cast<const tir::StringImm&>(node).value));
      return;
    case K::kCast: {
      const auto& x = static_cast<const tir::Cast&>(node);
      v.value(x.dtype);
      v.child(x.value);
      return;
    }
    case K::kAdd:
    case K::kSub:
    case K::kMul:
    case K::kDiv:
    case K::kMod:
    case K::kFloorDiv:
    case K::kFloorMod:
    case K::kMin:
    case K::kMax:
    case K::kEQ:
    case K::kNE:
    case K::kLT:
    case K::kLE:
    case K::kGT:
    case K::kGE:
    case K::kAnd:
    case K::kOr: {
      const auto& x = static_cast<const tir::BinaryOp&>(node);
      v.value(x.dtype);
      v.child(x.a);
      v.child(x.b);
      return;
    }
    case K::kNot:
      v.child(static_cast<const tir::Not&>(node).a);
      return;
    case K::kSelect: {
      const auto& x = static_cast<const tir::Select&>(node);
      v.value(x.dtype);
      v.child(x.condition);
      v.child(x.true_value);
      v.child(x.false_value);
      return;
    }
    case K::kBufferLoad: {
      const auto& x = static_cast<const tir::BufferLoad&>(node);
      v.value(x.dtype);
      v.child(x.buffer);
      v.children(x.indices);
      v.child(x.predicate);
      return;
    }
    case K::kRamp: {
      const auto& x = static_cast<const tir::Ramp&>(node);
      v.value(x.dtype);
      v.child(x.base);
      v.child(x.stride);
      v.child(x.lanes);
      return;
    }
    case K::kBroadcast: {
      const auto& x = static_cast<const tir::Broadcast&>(node);
      v.value(x.dtype);
      v.child(x.value);
      v.child(x.lanes);
      return;
    }
    case K::kShuffle: {
      const auto& x = static_cast<const tir::Shuffle&>(node);
      v.value(x.dtype);
      v.children(x.vectors);
      v.children(x.indices);
      return;
    }
    case K::kLet: {
      const auto& x = static_cast<const tir::Let&>(node);
      v.child(x.var);
      v.child(x.value);
      v.child(x.body);
      return;
    }
    case K::kTirCall: {
      const auto& x = static_cast<const tir::Call&>(node);
      v.value(x.dtype);
      v.value(std::string_view(x.op));
      v.children(x.args);
      return;
    }
    case K::kReduce: {
      const auto& x = static_cast<const tir::Reduce&>(node);
      v.value(x.dtype);
      v.child(x.combiner);
      v.children(x.source);
      v.children(x.axis);
      v.child(x.condition);
      v.value(static_cast<int64_t>(x.value_index));
      v.children(x.init);
      return;
    }
    case K::kLetStmt: {
      const auto& x = static_cast<const tir::LetStmt&>(node);
      v.child(x.var);
      v.child(x.value);
      v.child(x.body);
      return;
    }
    case K::kAttrStmt: {
      const auto& x = static_cast<const tir::AttrStmt&>(node);
      v.child(x.node);
      v.value(std::string_view(x.attr_key));
      v.child(x.value);
      v.child(x.body);
      return;
    }
    case K::kAssertStmt: {
      const auto& x = static_cast<const tir::AssertStmt&>(node);
      v.child(x.condition);
      v.child(x.message);
      v.child(x.body);
      return;
    }
    case K::kBufferStore: {
      const auto& x = static_cast<const tir::BufferStore&>(node);
      v.child(x.buffer);
      v.child(x.value);
      v.children(x.indices);
      v.child(x.predicate);
      return;
    }
    case K::kBufferRealize: {
      const auto& x = static_cast<const tir::BufferRealize&>(node);
      v.child(x.buffer);
      v.children(x.bounds);
      v.child(x.condition);
      v.child(x.body);
      return;
    }
    case K::kAllocate: {
      const auto& x = static_cast<const tir::Allocate&>(node);
      v.child(x.buffer_var);
      v.value(x.dtype);
      v.children(x.extents);
      v.child(x.condition);
      v.child(x.body);
      v.attrs(x.annotations);
      return;
    }
    case K::kDeclBuffer: {
      const auto& x = static_cast<const tir::DeclBuffer&>(node);
      v.child(x.buffer);
      v.child(x.body);
      return;
    }
    case K::kSeqStmt:
      v.children(static_cast<const tir::SeqStmt&>(node).seq);
      return;
    case K::kIfThenElse: {
      const auto& x = static_cast<const tir::IfThenElse&>(node);
      v.child(x.condition);
      v.child(x.then_case);
      v.child(x.else_case);
      return;
    }
    case K::kEvaluate:
      v.child(static_cast<const tir::Evaluate&>(node).value);
      return;
    case K::kFor: {
      const auto& x = static_cast<const tir::For&>(node);
      v.child(x.loop_var);
      v.child(x.min);
      v.child(x.extent);
      v.value(static_cast<int64_t>(x.for_kind));
      v.child(x.thread_binding);
      v.attrs(x.annotations);
      v.child(x.body);
      return;
    }
    case K::kWhile: {
      const auto& x = static_cast<const tir::While&>(node);
      v.child(x.condition);
      v.child(x.body);
      return;
    }
    case K::kBlock: {
      const auto& x = static_cast<const tir::Block&>(node);
      v.children(x.iter_vars);
      v.children(x.alloc_buffers);
      v.children(x.match_buffers);
      v.children(x.reads);
      v.children(x.writes);
      v.value(std::string_view(x.name_hint));
      v.attrs(x.annotations);
      v.child(x.init);
      v.child(x.body);
      return;
    }
    case K::kBlockRealize: {
      const auto& x = static_cast<const tir::BlockRealize&>(node);
      v.children(x.iter_values);
      v.child(x.predicate);
      v.child(x.block);
      return;
    }
    case K::kBuffer:
      reflect_buffer(static_cast<const tir::Buffer&>(node), v);
      return;
    case K::kRange: {
      const auto& x = static_cast<const tir::Range&>(node);
      v.child(x.min);
      v.child(x.extent);
      return;
    }
    case K::kIterVar: {
      const auto& x = static_cast<const tir::IterVar&>(node);
      v.child(x.dom);
      v.child(x.var);
      v.value(static_cast<int64_t>(x.iter_type));
      v.value(std::string_view(x.thread_tag));
      return;
    }
    case K::kBufferRegion: {
      const auto& x = static_cast<const tir::BufferRegion&>(node);
      v.child(x.buffer);
      v.children(x.region);
      return;
    }
    case K::kMatchBufferRegion: {
      const auto& x = static_cast<const tir::MatchBufferRegion&>(node);
      v.child(x.buffer);
      v.child(x.source);
      return;
    }
    case K::kIndexMap: {
      const auto& x = static_cast<const tir::IndexMap&>(node);
      v.children(x.initial_indices);
      v.children(x.final_indices);
      v.child(x.inverse);
      return;
    }
    case K::kCommReducer: {
      const auto& x = static_cast<const tir::CommReducer&>(node);
      v.children(x.lhs);
      v.children(x.rhs);
      v.children(x.result);
      v.children(x.identity_element);
      return;
    }
    case K::kPrimFunc: {
      const auto& x = static_cast<const tir::PrimFunc&>(node);
      v.children(x.params);
      v.value(static_cast<int64_t>(x.buffer_map.size()));
      for (const auto& [param, buffer] : x.buffer_map) {
        v.child(param);
        v.child(buffer);
      }
      v.value(x.ret_type);
      v.attrs(x.attrs);
      v.child(x.body);
      return;
    }
    case K::kIRModule: {
      const auto& x = static_cast<const IRModule&>(node);
      v.value(static_cast<int64_t>(x.functions.size()));
      for (const auto& m : x.functions) {
        v.child(m.gvar);
        v.child(m.func);
      }
      v.attrs(x.attrs);
      v.value(static_cast<int64_t>(x.global_infos.size()));
      for (const auto& [key, infos] : x.global_infos) {
        v.value(std::string_view(key));
        v.children(infos);
      }
      return;
    }
    case K::kTarget:
      v.child(static_cast<const Target&>(node).config);
      return;
    case K::kVDevice: {
      const auto& x = static_cast<const VDevice&>(node);
      v.child(x.target);
      v.value(static_cast<int64_t>(x.vdevice_id));
      v.value(std::string_view(x.memory_scope));
      return;
    }
    case K::kDummyGlobalInfo:
      return;
    case K::kOpaqueCall: {
      const auto& x = static_cast<const OpaqueCall&>(node);
      v.value(std::string_view(x.callee));
      v.children(x.args);
      v.attrs(x.kwargs);
      return;
    }
  }
}

}  // namespace relax::ir
