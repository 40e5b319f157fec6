# The reference TIR interpreter (compiler/tir_eval/).
list(APPEND RELAX_COMPILER_SOURCES tir_eval/tir_eval.cc)
