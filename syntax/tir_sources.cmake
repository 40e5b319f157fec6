# The TIR half of the front end and printer (appended to the sources of relax_syntax).
list(APPEND RELAX_SYNTAX_TIR_SOURCES
  frontend/tir_arith.cc
  frontend/tir_builtins.cc
  frontend/tir_complete.cc
  frontend/tir_frame_builtins.cc
  frontend/tir_ops.cc
  frontend/tir_stmt.cc
  frontend/tir_values.cc
)
list(APPEND RELAX_SYNTAX_TIR_SOURCES
  printer/tir_printer_scan.cc
)
