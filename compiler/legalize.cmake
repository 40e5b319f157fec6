# LegalizeOps (compiler/legalize/): the pass and the per-family legalizations.
list(APPEND RELAX_COMPILER_SOURCES
  legalize/legalize_ops.cc
  legalize/ops_elementwise.cc
  legalize/ops_reduce.cc
  legalize/ops_manipulate.cc
  legalize/ops_nn.cc
  legalize/ops_misc.cc
  legalize/ops_runtime.cc)
