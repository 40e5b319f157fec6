# Tests of the Relax half of the front end and printer.
list(APPEND RELAX_SYNTAX_TEST_SOURCES
  relax_diagnostics_test.cc
  relax_frontend_test.cc
  metadata_test.cc
  relax_printer_test.cc)
