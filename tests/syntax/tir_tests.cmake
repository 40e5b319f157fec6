# Tests of the TIR half of the front end and printer.
list(APPEND RELAX_SYNTAX_TEST_SOURCES
  tir_diagnostics_test.cc
  tir_parser_test.cc
  tir_printer_test.cc
  tir_roundtrip_test.cc
  tir_tvm_forms_test.cc
)
