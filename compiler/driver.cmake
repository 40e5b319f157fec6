# The build driver and the default pipeline (compiler/build.*, compiler/pipeline.*).
list(APPEND RELAX_COMPILER_SOURCES build.cc pipeline.cc)
