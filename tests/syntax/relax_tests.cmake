# Tests of the Relax half of the front end and printer.
list(APPEND RELAX_SYNTAX_TEST_SOURCES
  relax_roundtrip_test.cc)
