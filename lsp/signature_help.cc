// textDocument/signatureHelp: the signature of the op, module function or builtin being called
// at the cursor, with the argument the cursor is in (a keyword argument by its name).
#include "analysis/ops/op_registry.h"
#include "analysis/struct_info.h"
#include "ide/queries.h"
#include "ir/expr.h"
#include "ir/module.h"
#include "lsp/features.h"

namespace relax::lsp {

json signature_help(const CheckedDocument& doc, uint32_t offset) {
  auto call = ide::call_at(doc.result, offset);
  if (!call) return nullptr;
  std::vector<std::string> params;
  std::string label, documentation;
  if (call->callee.rfind("R.", 0) == 0) {
    const analysis::OpInfo* op =
        analysis::OpRegistry::global().find("relax." + call->callee.substr(2));
    if (!op) return nullptr;
    for (const analysis::ArgSpec& a : op->args) params.push_back(a.name);
    for (const analysis::AttrSpec& a : op->attrs) params.push_back(a.name);
    documentation = op->doc;
    label = call->callee + "(";
  } else if (call->function && doc.result.module) {
    const ir::IRModule::Member* member = doc.result.module->functions.find(call->function->name);
    auto fn = member ? member->func.as<ir::Function>() : nullptr;
    if (!fn) return nullptr;
    label = call->callee + "(";
    for (const auto& p : fn->params)
      params.push_back(p->name + ": " +
                       (p->struct_info ? analysis::struct_info_text(p->struct_info) : "R.Object"));
  } else {
    return nullptr;
  }
  json parameters = json::array();
  for (size_t i = 0; i < params.size(); ++i) {
    if (i) label += ", ";
    uint32_t begin = static_cast<uint32_t>(label.size());
    label += params[i];
    parameters.push_back({{"label", {begin, static_cast<uint32_t>(label.size())}}});
  }
  label += ")";
  // The parameter the cursor is in: a keyword by name, else by position.
  size_t active = call->argument;
  if (!call->keyword.empty()) {
    for (size_t i = 0; i < params.size(); ++i)
      if (params[i] == call->keyword || params[i].rfind(call->keyword + ":", 0) == 0) active = i;
  }
  json signature = {{"label", label}, {"parameters", parameters}};
  if (!documentation.empty())
    signature["documentation"] = {{"kind", "markdown"}, {"value", documentation}};
  if (active < params.size()) signature["activeParameter"] = active;
  return {{"signatures", json::array({signature})},
          {"activeSignature", 0},
          {"activeParameter", active < params.size() ? active : 0}};
}

}  // namespace relax::lsp
