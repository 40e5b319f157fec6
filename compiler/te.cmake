# The tensor-expression builder (compiler/te/).
list(APPEND RELAX_COMPILER_SOURCES te/te.cc)
