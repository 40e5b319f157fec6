# TIR lowering, the TIR verifier, schedule primitives and the default CPU schedules
# (compiler/tir/). Appended to relax_compiler's sources by compiler/CMakeLists.txt.
list(APPEND RELAX_COMPILER_SOURCES
  tir/util.cc
  tir/verify.cc
  tir/op_pattern.cc
  tir/lower.cc
  tir/lower_init_block.cc
  tir/convert_blocks_to_opaque.cc
  tir/lower_match_buffer.cc
  tir/lower_opaque_block.cc
  tir/instrument_bound_checkers.cc
  tir/flatten_buffer.cc
  tir/simplify.cc
  tir/lower_parallel_loops.cc
  tir/vectorize_loop.cc
  tir/unroll_loop.cc
  tir/schedule/schedule.cc
  tir/schedule/default_schedule.cc
  tir/schedule/default_schedule_pass.cc
  tir/schedule/schedule_file.cc
)
