// Signatures of Relax functions: the decorator's flags, the symbolic variables a signature
// defines (shape strings, TypeVars, PEP 695 type parameters), parameters and the return
// struct info.
#include <algorithm>
#include <set>

#include "syntax/frontend/literals.h"
#include "syntax/frontend/relax_frontend.h"

namespace relax::syntax::relax_fe {

using ir::make;

namespace {

// The symbolic names a signature annotation defines, collected in one walk before anything is
// evaluated so that any parameter may use them: bare names written as strings in shape
// positions (`R.Tensor(("n", 4))`, `R.Shape(["m"])`, `R.Prim(value="k")`) and module-level
// TypeVars (bare or inside quoted expressions). The walk only enters expression structure.
struct SignatureNames {
  std::vector<std::string> shape_strings;
  std::vector<std::string> type_vars;
  bool lookup_type_vars = true;
};

void add_unique(std::vector<std::string>& v, const std::string& s) {
  if (std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
}

// Whether the file declares module-level TypeVars (`n = TypeVar("n")`); without any, the
// signature scan skips name lookups. Computed once per parse (the front end keeps it: a cache
// keyed by the tree would go stale when an edited document's new tree reuses an address).
bool file_has_type_vars(Frontend& fe) {
  if (fe.has_type_vars) return *fe.has_type_vars;
  const SyntaxTree& tree = fe.tree();
  bool found = false;
  for (Node stmt : tree.root().named_children()) {
    if (stmt.kind() != NodeKind::kExpressionStatement && stmt.kind() != NodeKind::kAssignment)
      continue;
    Node a = stmt.kind() == NodeKind::kAssignment ? stmt : first_named(stmt);
    if (!a || a.kind() != NodeKind::kAssignment) continue;
    Node right = a.field(Field::kRight);
    if (right && right.kind() == NodeKind::kCall &&
        right.field(Field::kFunction).text().ends_with("TypeVar")) {
      found = true;
      break;
    }
  }
  fe.has_type_vars = found;
  return found;
}

void note_type_var(Frontend& fe, const std::string& name, SignatureNames& out) {
  if (!out.lookup_type_vars) return;
  const Value* v = fe.lookup(name);
  if (v && v->is_type_var()) add_unique(out.type_vars, name);
}

void scan_string(Frontend& fe, Node str, bool shape_position, SignatureNames& out) {
  DecodedString s = decode_string(str.text());
  if (!s.ok) return;
  if (shape_position && is_identifier(s.value)) add_unique(out.shape_strings, s.value);
  // Identifiers inside a quoted expression may name TypeVars ("M * 2").
  const std::string& t = s.value;
  for (size_t i = 0; i < t.size();) {
    if (std::isalpha(static_cast<unsigned char>(t[i])) || t[i] == '_') {
      size_t j = i;
      while (j < t.size() && (std::isalnum(static_cast<unsigned char>(t[j])) || t[j] == '_')) ++j;
      if (i == 0 || t[i - 1] != '.') note_type_var(fe, t.substr(i, j - i), out);
      i = j;
    } else {
      ++i;
    }
  }
}

void scan_shape(Frontend& fe, Node n, SignatureNames& out, uint32_t& depth);

// `depth` counts the nesting walked (ir::kExprNesting): deeper parts are left out, as the
// evaluation of the annotation reports E0242 on them.
void scan_annotation(Frontend& fe, Node n, bool shape_position, SignatureNames& out,
                     uint32_t& depth) {
  ir::DepthGuard guard(depth, ir::kExprNesting);
  if (!n || !guard.entered()) return;
  // Only strings and TypeVars define names: an annotation with neither needs no walk.
  if (!out.lookup_type_vars && !shape_position) {
    std::string_view text = n.text();
    if (text.find('"') == std::string_view::npos && text.find('\'') == std::string_view::npos)
      return;
  }
  switch (n.kind()) {
    case NodeKind::kIdentifier:
      note_type_var(fe, std::string(n.text()), out);
      return;
    case NodeKind::kString:
      scan_string(fe, n, shape_position, out);
      return;
    case NodeKind::kAttribute:
      scan_annotation(fe, n.field(Field::kObject), false, out, depth);
      return;
    case NodeKind::kCall: {
      Node f = n.field(Field::kFunction);
      std::string_view fname =
          f.kind() == NodeKind::kAttribute ? f.field(Field::kAttribute).text() : f.text();
      bool shaped = fname == "Tensor" || fname == "Shape";
      bool first_positional = true;
      for (Node arg : n.field(Field::kArguments).named_children()) {
        if (arg.kind() == NodeKind::kComment) continue;
        if (arg.kind() == NodeKind::kKeywordArgument) {
          std::string_view key = arg.field(Field::kName).text();
          bool shape_arg =
              (fname == "Tensor" && key == "shape") || (fname == "Shape" && key == "values");
          Node value = arg.field(Field::kValue);
          if (fname == "Prim" && key == "value" && value.kind() == NodeKind::kString)
            scan_string(fe, value, true, out);
          else
            scan_annotation(fe, value, false, out, depth);
          if (shape_arg) scan_shape(fe, value, out, depth);
          continue;
        }
        if (first_positional && shaped)
          scan_shape(fe, arg, out, depth);
        else
          scan_annotation(fe, arg, false, out, depth);
        first_positional = false;
      }
      return;
    }
    case NodeKind::kBinaryOperator: {
      // `a + b + ...` nests to the left, one level a term: its spine is walked in a loop, the
      // operands in source order.
      std::vector<Node> rights;
      Node left = n;
      for (; left.kind() == NodeKind::kBinaryOperator; left = left.field(Field::kLeft))
        rights.push_back(left.field(Field::kRight));
      scan_annotation(fe, left, shape_position, out, depth);
      for (auto it = rights.rbegin(); it != rights.rend(); ++it)
        scan_annotation(fe, *it, shape_position, out, depth);
      return;
    }
    case NodeKind::kTuple:
    case NodeKind::kList:
    case NodeKind::kUnaryOperator:
    case NodeKind::kParenthesizedExpression:
      for (Node c : n.named_children()) scan_annotation(fe, c, shape_position, out, depth);
      return;
    default:
      return;
  }
}

// A shape argument: its string items are dims.
void scan_shape(Frontend& fe, Node n, SignatureNames& out, uint32_t& depth) {
  if (n.kind() == NodeKind::kTuple || n.kind() == NodeKind::kList) {
    for (Node c : n.named_children()) scan_annotation(fe, c, /*shape_position=*/true, out, depth);
  } else {
    scan_annotation(fe, n, false, out, depth);
  }
}

}  // namespace

DecoratorFlags read_decorator(Frontend& fe, Node decorated) {
  DecoratorFlags flags;
  Node last;
  for (Node c : decorated.named_children()) {
    if (c.kind() == NodeKind::kDecorator) last = c;
  }
  Node expr = last ? first_named(last) : Node();
  if (!expr || expr.kind() != NodeKind::kCall) return flags;
  for (Node arg : expr.field(Field::kArguments).named_children()) {
    if (arg.kind() == NodeKind::kComment) continue;
    if (arg.kind() != NodeKind::kKeywordArgument) {
      fe.error(codes::kDecorator, arg,
               "@R.function takes keyword arguments only (pure=, private=)");
      continue;
    }
    std::string key(arg.field(Field::kName).text());
    Node value = arg.field(Field::kValue);
    if (key != "pure" && key != "private" && key != "check_well_formed") {
      fe.error(codes::kDecorator, arg.field(Field::kName),
               "@R.function got an unexpected keyword argument `" + key + "`");
      continue;
    }
    if (value.kind() != NodeKind::kTrue && value.kind() != NodeKind::kFalse) {
      fe.error(codes::kDecorator, value, "`" + key + "=` must be the literal True or False");
      continue;
    }
    bool b = value.kind() == NodeKind::kTrue;
    if (key == "pure")
      flags.pure = b;
    else if (key == "private")
      flags.is_private = b;
  }
  return flags;
}

// Evaluates a signature inside the function's (already pushed) scope and state: symbolic vars
// of type parameters, TypeVars and shape strings first (so that any parameter may use them),
// then the return annotation and the parameters in order.
Signature parse_signature(Frontend& fe, Node def, FunctionState& st) {
  Signature sig;
  // `names_it`: `span` is the name's own definition; otherwise the variable is defined by the
  // first shape string that uses it (the symbol index takes that as its definition).
  auto define_symbolic = [&](const std::string& name, ir::Span span, bool names_it) {
    if (st.symbolic_vars.count(name)) return;
    auto var = make<ir::tir::Var>(name, ir::DataType::Int64());
    var->span = span;
    st.symbolic_vars[name] = var;
    fe.define(name, Value::object(var, names_it ? span : ir::Span::unknown()));
  };
  if (Node tps = def.field(Field::kTypeParameters)) {
    for (Node tp : tps.named_children()) {
      if (tp.kind() != NodeKind::kTypeParameter) continue;
      Node name = tp.field(Field::kName);
      if (name) define_symbolic(std::string(name.text()), name.span(), true);
    }
  }
  Node params = def.field(Field::kParameters);
  Node ret = def.field(Field::kReturnType);
  SignatureNames names;
  names.lookup_type_vars = file_has_type_vars(fe);
  uint32_t depth = 0;
  for (Node p : params.named_children()) {
    if (p.kind() == NodeKind::kTypedParameter)
      scan_annotation(fe, p.field(Field::kAnnotation), false, names, depth);
  }
  // Strings of the return annotation only use names (a new one there is defined on first use).
  std::vector<std::string> param_strings = std::move(names.shape_strings);
  names.shape_strings.clear();
  scan_annotation(fe, ret, false, names, depth);
  for (const auto& n : names.type_vars) define_symbolic(n, def.field(Field::kName).span(), false);
  for (const auto& n : param_strings) define_symbolic(n, def.field(Field::kName).span(), false);

  st.in_signature = true;
  std::set<std::string> seen;
  for (Node p : params.named_children()) {
    switch (p.kind()) {
      case NodeKind::kComment:
        continue;
      case NodeKind::kTypedParameter: {
        Node name_node = p.field(Field::kName);
        std::string name(name_node.text());
        Ref<ir::StructInfo> sinfo = to_struct_info(fe, fe.eval(p.field(Field::kAnnotation)));
        if (!seen.insert(name).second) {
          fe.error(codes::kSignature, name_node, "duplicate parameter `" + name + "`");
          sig.ok = false;
        }
        if (!sinfo) {
          sig.ok = false;
          fe.poison(name);
          continue;
        }
        auto var = make<ir::Var>(name, sinfo);
        var->span = name_node.span();
        sig.params.push_back(var);
        fe.define(name, Value::object(var, var->span));
        fe.symbols.set_kind(var.get(), SymbolKind::kParameter);
        break;
      }
      case NodeKind::kIdentifier:
        fe.error(codes::kSignature, p,
                 "parameter `" + std::string(p.text()) + "` needs a struct info annotation")
            .note("write it as `" + std::string(p.text()) + ": R.Tensor(...)`");
        fe.poison(std::string(p.text()));
        sig.ok = false;
        break;
      case NodeKind::kDefaultParameter:
        fe.error(codes::kSignature, p, "parameters of a Relax function cannot have default values");
        sig.ok = false;
        break;
      default:
        if (p.has_error()) {
          sig.ok = false;
          break;
        }
        fe.error(
            codes::kSignature, p,
            "only `name: annotation` parameters are supported (no defaults, *args or **kwargs)");
        sig.ok = false;
    }
  }
  // The return annotation last, so that it may use R.Prim("int64") parameters too.
  if (ret) {
    sig.ret = to_struct_info(fe, fe.eval(ret));
    sig.ok &= sig.ret != nullptr;
  }
  st.in_signature = false;
  return sig;
}

Ref<ir::FuncStructInfo> signature_sinfo(const Signature& sig, bool pure) {
  auto f = make<ir::FuncStructInfo>();
  std::vector<Ref<ir::StructInfo>> params;
  for (const auto& p : sig.params) params.push_back(p->struct_info);
  f->params = std::move(params);
  f->ret = sig.ret ? sig.ret : Ref<ir::StructInfo>(make<ir::ObjectStructInfo>());
  f->purity = pure;
  return f;
}

// Evaluates a signature only for its struct info, leaving no diagnostics or names behind (they
// are reported when the function itself is parsed).
Ref<ir::FuncStructInfo> quiet_signature(Frontend& fe, Node def, bool pure) {
  ir::DiagnosticBag::Mark before = fe.diags().mark();
  Ref<ir::FuncStructInfo> out;
  {
    Frontend::ScopeGuard scope(fe);
    FunctionState st;
    StateGuard guard(fe, st);
    Signature sig = parse_signature(fe, def, st);
    if (sig.ok) out = signature_sinfo(sig, pure);
  }
  fe.diags().rollback(before);
  return out;
}

}  // namespace relax::syntax::relax_fe
