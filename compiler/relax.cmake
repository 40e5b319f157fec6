# Relax passes (compiler/relax/): one pass per file.
list(APPEND RELAX_COMPILER_SOURCES
  relax/pass_util.cc
  relax/to_non_dataflow.cc
  relax/call_tir_rewrite.cc
  relax/dead_code_elimination.cc
  relax/canonicalize_bindings.cc
  relax/static_plan_block_memory.cc
  relax/lower_alloc_tensor.cc
  relax/kills.cc
  relax/kill_after_last_use.cc
  relax/lower_runtime_builtin.cc
  relax/bind_params.cc
  relax/lambda_lift.cc
  relax/remove_purity_checking.cc
  relax/annotate_tir_op_pattern.cc
  relax/fold_constant.cc
  relax/vm_shape_lower.cc
)
