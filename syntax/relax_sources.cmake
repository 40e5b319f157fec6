# The Relax half of the front end and printer (relax_parser.cc and relax_printer.cc are listed
# by syntax/CMakeLists.txt).
list(APPEND RELAX_SYNTAX_RELAX_SOURCES
  frontend/relax_builtins.cc
  frontend/relax_signature.cc
  frontend/relax_struct_info.cc
  printer/relax_expr_printer.cc)
