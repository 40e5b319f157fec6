# LegalizeOps (compiler/legalize/): the pass and the per-family legalizations.
list(APPEND RELAX_COMPILER_SOURCES
  legalize/legalize_ops.cc
  legalize/ops_elementwise.cc
  legalize/ops_reduce.cc
  legalize/ops_manipulate.cc
  legalize/ops_nn.cc
  legalize/ops_misc.cc
  legalize/ops_conv.cc
  legalize/ops_pool.cc
  legalize/ops_nn_misc.cc
  legalize/ops_scatter.cc
  legalize/ops_einsum.cc
  legalize/ops_quantize.cc
  legalize/ops_layout.cc
  legalize/ops_runtime.cc
  legalize/layouts.cc)
